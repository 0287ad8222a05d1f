import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The built `compass-worker` run as a process of its own, as `make run` and the cluster run it:
/// lifecycle tests signal it, stop its database under it, and call it over HTTP.
///
/// ```swift
/// let worker = try await WorkerProcess.start(databaseURL: url)
/// defer { worker.stop() }
/// let (status, body) = try await worker.get("/ready")
/// ```
public final class WorkerProcess: Sendable {
    /// The process (its stderr holds the log).
    public let process: ChildProcess
    /// The port it listens on (it was started with port 0).
    public let port: Int

    /// A secret long enough for HS256, the one every lifecycle test signs with.
    public static let secret = "worker-process-tests-secret-0123456789"

    private init(process: ChildProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts the worker on a free port over `databaseURL` (with `environment` added) and waits
    /// until it logs that it listens.
    public static func start(databaseURL: String, environment: [String: String] = [:]) async throws -> WorkerProcess {
        var variables = [
            "DATABASE_URL": databaseURL, "COMPASS_JWT_SECRET": secret, "COMPASS_WORKER_HOST": "127.0.0.1",
            "COMPASS_WORKER_PORT": "0", "COMPASS_SQL_DIR": TestCluster.repositoryRoot.appendingPathComponent("sql").path,
        ]
        variables.merge(environment) { _, new in new }
        let process = try ChildProcess([try binary().path], environment: variables)
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            if let port = listeningPort(in: process.errorOutput) { return WorkerProcess(process: process, port: port) }
            if let code = process.exitCodeIfExited() {
                throw HarnessError("compass-worker exited with \(code): \(process.errorOutput.suffix(2000))")
            }
            guard ContinuousClock.now < deadline else {
                process.terminate()
                throw HarnessError("compass-worker did not listen in time: \(process.errorOutput.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// A TCP port on 127.0.0.1 nothing listens on right now.
    public static func freePort() throws -> Int {
        let (code, output, error) = try ChildProcess.runBlocking([
            "python3", "-c", "import socket; s=socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])",
        ])
        guard code == 0, let port = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HarnessError("no free port: \(error)")
        }
        return port
    }

    /// The `compass-worker` executable next to `compass`.
    public static func binary() throws -> URL {
        try CompassBinary.url().deletingLastPathComponent().appendingPathComponent("compass-worker")
    }

    /// The port in the worker's `listening` log line (`url=ws://127.0.0.1:PORT/realtime/v1`).
    static func listeningPort(in log: String) -> Int? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("listening") }),
              let range = line.range(of: #"127\.0\.0\.1:[0-9]+"#, options: .regularExpression)
        else { return nil }
        return Int(line[range].split(separator: ":").last ?? "")
    }

    /// `http://127.0.0.1:port`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// One request; the status, the headers and the body as text.
    public func request(
        _ path: String, method: String = "GET", headers: [String: String] = [:], body: String? = nil,
        timeout: TimeInterval = 30
    ) async throws -> (status: Int, headers: [String: String], body: String) {
        var request = URLRequest(url: URL(string: url + path)!, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw HarnessError("not an HTTP response") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return (http.statusCode, fields, String(decoding: data, as: UTF8.self))
    }

    /// `GET path`: the status and the body.
    public func get(_ path: String) async throws -> (status: Int, body: String) {
        let reply = try await request(path)
        return (reply.status, reply.body)
    }

    /// Polls `GET path` until it answers `status`; the last body, or a throw after `timeout`.
    @discardableResult
    public func waitFor(_ path: String, status: Int, timeout: Duration = .seconds(20)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var last = "(no answer)"
        while ContinuousClock.now < deadline {
            if let reply = try? await get(path) {
                if reply.status == status { return reply.body }
                last = "\(reply.status) \(reply.body)"
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw HarnessError("\(path) never answered \(status) in \(timeout); last: \(last)")
    }

    /// SIGTERM, then waits for the exit (SIGKILL after `timeout`); the exit code.
    @discardableResult
    public func stop(timeout: Duration = .seconds(20)) async throws -> Int32 {
        process.signal(SIGTERM)
        return try await process.exitCode(timeout: timeout)
    }

    /// Ends the process at once (cleanup after a failed test).
    public func kill() {
        process.terminate()
    }
}

/// A PostgreSQL cluster of a test's own, in a temporary folder, which the test may stop and
/// start again (the shared test cluster must stay up for every other test).
public struct PrivateCluster: Sendable {
    /// Its folder.
    public let folder: String
    /// The URL of its `postgres` database.
    public let url: String

    /// initdb and start.
    public static func start() throws -> PrivateCluster {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compass-private-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        let url = try TestCluster.runScript(["start", folder.path])
        return PrivateCluster(folder: folder.path, url: url)
    }

    /// Stops the server (its clients see their connections end).
    public func stop() throws { try TestCluster.runScript(["stop", folder]) }

    /// Starts it again on the same port.
    public func restart() throws { try TestCluster.runScript(["start", folder]) }

    /// Stops it and removes its folder.
    public func remove() {
        _ = try? TestCluster.runScript(["stop", folder])
        try? FileManager.default.removeItem(atPath: folder)
    }
}
