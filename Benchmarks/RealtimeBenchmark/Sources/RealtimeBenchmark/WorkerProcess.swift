import CompassTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The release `compass-worker`, run as a child process so its memory can be measured.
struct WorkerProcess {
    let process: ChildProcess
    let port: Int

    static func start(binary: String, databaseURL: String, secret: String, logPath: String) async throws -> WorkerProcess {
        let port = try freePort()
        let process = try ChildProcess(
            [binary],
            environment: [
                "DATABASE_URL": databaseURL, "COMPASS_JWT_SECRET": secret, "COMPASS_WORKER_HOST": "127.0.0.1",
                "COMPASS_WORKER_PORT": String(port), "LOG_LEVEL": "warning",
            ],
            outputPath: logPath, mergingErrors: true)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try await health(port: port) == 200 { return WorkerProcess(process: process, port: port) }
            guard process.exitCodeIfExited() == nil else { throw BenchmarkError("the worker exited: \(process.output.suffix(2000))") }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchmarkError("the worker did not become healthy: \(process.output.suffix(2000))")
    }

    /// SIGTERM, then wait.
    func stop() async {
        process.signal(SIGTERM)
        _ = try? await process.exitCode(timeout: .seconds(60))
    }

    /// A counter from `/metrics`.
    func metric(_ name: String) async -> Double? {
        guard let (data, _) = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!) else { return nil }
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(name + " ") {
            return Double(line.split(separator: " ").last ?? "")
        }
        return nil
    }

    /// A histogram from `/metrics`: its cumulative buckets (upper bound, count), sum and count.
    func histogram(_ name: String) async -> MetricHistogram? {
        guard let (data, _) = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!) else { return nil }
        var histogram = MetricHistogram()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            guard let value = Double(line.split(separator: " ").last ?? "") else { continue }
            if line.hasPrefix(name + "_sum ") {
                histogram.sum = value
            } else if line.hasPrefix(name + "_count ") {
                histogram.count = value
            } else if line.hasPrefix(name + "_bucket{le=\""), let bound = line.split(separator: "\"").dropFirst().first {
                histogram.buckets.append((Double(bound) ?? .infinity, value))
            }
        }
        return histogram.buckets.isEmpty ? nil : histogram
    }

    static func health(port: Int) async throws -> Int {
        do {
            let (_, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
            return (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            return 0
        }
    }

    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) }
        }
        guard bound == 0 else { throw BenchmarkError("cannot find a free port") }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A Prometheus histogram read from `/metrics`, and differences between two readings.
struct MetricHistogram {
    var buckets: [(bound: Double, count: Double)] = []
    var sum = 0.0
    var count = 0.0

    /// What was recorded since `earlier`.
    func since(_ earlier: MetricHistogram?) -> MetricHistogram {
        guard let earlier else { return self }
        var difference = MetricHistogram(sum: sum - earlier.sum, count: count - earlier.count)
        difference.buckets = zip(buckets, earlier.buckets).map { ($0.bound, $0.count - $1.count) }
        return difference
    }

    /// The upper bound of the bucket holding the `fraction` quantile.
    func quantileBound(_ fraction: Double) -> Double? {
        buckets.first { $0.count >= fraction * count }?.bound
    }
}
