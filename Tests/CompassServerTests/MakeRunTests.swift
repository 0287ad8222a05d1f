import CompassTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `make run` and `make stop` as a user runs them (scripts/run, scripts/stop), on a state folder
/// of the test's own (`COMPASS_RUN_DIR`) with the binaries already built.
@Suite("make run / make stop: one worker, its banner once it listens, a clean stop", .serialized)
struct MakeRunTests {
    static func script(_ name: String) -> String {
        TestCluster.repositoryRoot.appendingPathComponent("scripts/\(name)").path
    }

    @Test func runPrintsItsBannerOnceTheWorkerListensAndStopEndsWorkerAndCluster() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("compass-run-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        chmod(state.path, 0o755)
        defer { try? FileManager.default.removeItem(at: state) }
        let port = try WorkerProcess.freePort()
        let environment = [
            "COMPASS_RUN_DIR": state.path, "COMPASS_RUN_SKIP_BUILD": "1", "COMPASS_WORKER_PORT": String(port),
            "DATABASE_URL": "", "COMPASS_JWT_SECRET": "",
        ]
        let run = try ChildProcess([Self.script("run")], environment: environment)
        var failure: (any Error)?
        do {
            try await run.waitForOutput(containing: "Compass is running", timeout: .seconds(120))
            // The banner came after the worker answered: it answers now, with no retry.
            let (health, _) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
            #expect(String(decoding: health, as: UTF8.self) == #"{"status":"ok"}"#)
            let pid = try String(contentsOf: state.appendingPathComponent("worker.pid"), encoding: .utf8)
            #expect(Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines)).map { kill($0, 0) == 0 } == true)
            let envFile = try String(contentsOf: state.appendingPathComponent("compass.env"), encoding: .utf8)
            #expect(envFile.contains("COMPASS_JWT_SECRET='compass-local-development-secret-change-me'"))

            let again = try await ChildProcess.run([Self.script("run")], environment: environment, timeout: .seconds(60))
            #expect(again.code == 1)
            #expect(again.error.contains("compass-worker is already running"), "\(again.error)")
            var elsewhere = environment
            elsewhere["COMPASS_RUN_DIR"] = state.appendingPathComponent("other").path
            let taken = try await ChildProcess.run([Self.script("run")], environment: elsewhere, timeout: .seconds(60))
            #expect(taken.code == 1)
            #expect(taken.error.contains("cannot listen on 127.0.0.1:\(port)") && taken.error.contains("COMPASS_WORKER_PORT"), "\(taken.error)")
        } catch {
            failure = error
        }
        let stop = try await ChildProcess.run([Self.script("stop")], environment: environment, timeout: .seconds(60))
        #expect(stop.code == 0, "\(stop.error)")
        #expect(stop.output.contains("stopped compass-worker"))
        #expect(stop.output.contains("stopped the private cluster"))
        #expect(try await run.exitCode(timeout: .seconds(30)) == 0, "scripts/run ends with its worker")
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("worker.pid").path))
        await #expect(throws: (any Error).self) {
            try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)
        }
        if let failure { throw failure }
    }
}
