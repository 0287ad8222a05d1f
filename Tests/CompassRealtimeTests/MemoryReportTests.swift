import CompassTestSupport
import Foundation
import Testing

@testable import CompassRealtime

/// Measures the worker's resident size around large frames and a burst of connections.
///
/// Off by default (it takes a minute and RSS is not a stable assertion); run it with
/// `COMPASS_REALTIME_MEMORY_REPORT=1`. The clients are a Python child process, so the
/// numbers are the worker's (and the test runner's), not the clients'.
/// `COMPASS_REALTIME_MEMORY_TRIM=0` turns the heap trim off and
/// `COMPASS_REALTIME_MEMORY_FRAME_LIMIT=<bytes>` sets the message (and frame) limit, to compare.
@Suite("Realtime memory report", .enabled(if: ProcessInfo.processInfo.environment["COMPASS_REALTIME_MEMORY_REPORT"] != nil))
struct MemoryReportTests {
    static let environment = ProcessInfo.processInfo.environment
    static let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassRealtimeTests/Python/hold_connections.py").path

    /// `VmRSS` of this process, in MiB.
    static func residentMebibytes() throws -> Double {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try #require(Double(line.split(separator: " ").dropFirst().first ?? ""))
        return kilobytes / 1024
    }

    /// Waits until every client has left and the sweeper has had time to trim.
    static func settle(_ worker: WorkerHarness) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while worker.hub.registry.counts.clients > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .seconds(7))
    }

    @Test func residentSizeAfterLargeFramesAndABurstOfConnections() async throws {
        let connections = Int(Self.environment["COMPASS_REALTIME_MEMORY_CONNECTIONS"] ?? "") ?? 2_000
        try await WorkerHarness.with(adjust: { configuration in
            if Self.environment["COMPASS_REALTIME_MEMORY_TRIM"] == "0" { configuration.memoryTrimDisconnects = .max }
            if let limit = Int(Self.environment["COMPASS_REALTIME_MEMORY_FRAME_LIMIT"] ?? "") { configuration.maximumMessageBytes = limit }
        }) { worker in
            let token = try await worker.token(Demo.sofia)
            let arguments = ["python3", Self.script, String(worker.port), token]
            // Warm up threads, pools and caches so the baseline is not the cold process.
            let warmUp = try ChildProcess(arguments + ["hold", "50"])
            try await warmUp.waitForOutput(containing: "OPEN", timeout: .seconds(60))
            warmUp.terminate()
            try await Self.settle(worker)
            let baseline = try Self.residentMebibytes()

            let frames = try ChildProcess(arguments + ["frames", String(10_000_000), "5"])
            try await frames.waitForOutput(containing: "DONE", timeout: .seconds(120))
            try await Self.settle(worker)
            let afterFrames = try Self.residentMebibytes()

            let burst = try ChildProcess(arguments + ["hold", String(connections)])
            try await burst.waitForOutput(containing: "OPEN", timeout: .seconds(300))
            let peak = try Self.residentMebibytes()
            let peakCapacity = worker.hub.registry.storageCapacity
            burst.terminate()
            try await Self.settle(worker)
            let afterBurst = try Self.residentMebibytes()
            let capacity = worker.hub.registry.storageCapacity

            let report = String(
                format: "realtime memory: baseline %.1f MiB; after 5 × 10 MB frames %.1f (%+.1f); %d connections open %.1f (%+.1f); "
                    + "after they closed %.1f (%+.1f over baseline); registry slots clients/channels %d/%d at peak, %d/%d after",
                baseline, afterFrames, afterFrames - baseline, connections, peak, peak - baseline, afterBurst, afterBurst - baseline,
                peakCapacity.clients, peakCapacity.channels, capacity.clients, capacity.channels)
            print(report)
            #expect(capacity.clients <= 64 && capacity.channels <= 64)
        }
    }
}
