import CompassTestSupport
import Foundation
import Testing

@testable import CompassRealtime

/// The official Python `realtime` client, unchanged, against a live in-process worker.
///
/// The test makes its own virtualenv and installs the client into it; it fails (never
/// skips) when that is impossible, since this is the compatibility promise.
@Suite("End to end with the Python realtime client")
struct PythonClientTests {
    static let requirement = "realtime==2.*"

    @Test func subscribesWithAFilterAndReceivesAnInsert() async throws {
        let python = try await PythonEnvironment.python(with: [Self.requirement])
        try await WorkerHarness.with { worker in
            let token = try await worker.token(Demo.sofia)
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassRealtimeTests/Python/subscribe_once.py").path
            let client = try ChildProcess([
                python, script, "http://127.0.0.1:\(worker.port)/realtime/v1", token, "e2e", "interactions",
                "logged_by=eq.\(Demo.sofia)",
            ])
            defer { client.terminate() }
            try await client.waitForOutput(containing: "SUBSCRIBED", timeout: .seconds(30))
            try await worker.insertInteraction(by: Demo.marcus, content: "not for sofia")
            let id = try await worker.insertInteraction(by: Demo.sofia, content: "from the e2e test")
            let code = try await client.exitCode(timeout: .seconds(30))
            #expect(code == 0, "python client failed: \(client.errorOutput.suffix(3000))")
            let line = try #require(client.output.split(separator: "\n").last.map(String.init))
            let payload = try RealtimeJSON(parsing: line)
            #expect(payload["data"]?["type"] == "INSERT")
            #expect(payload.recordValue("id") == id)
            #expect(payload.recordValue("content") == "from the e2e test")
        }
    }
}
