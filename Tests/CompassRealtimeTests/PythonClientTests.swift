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

    /// A burst committed in one statement goes out in batched socket writes: the official client
    /// still gets every row it may read, once, in commit order, and none of another user's.
    @Test func receivesABurstInCommitOrderOnce() async throws {
        let python = try await PythonEnvironment.python(with: [Self.requirement])
        try await WorkerHarness.with { worker in
            try await worker.createOwnedRowsTable("rt_py_burst")
            let token = try await worker.token(Demo.sofia)
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassRealtimeTests/Python/collect_changes.py").path
            let client = try ChildProcess([python, script, "http://127.0.0.1:\(worker.port)/realtime/v1", token, "burst", "rt_py_burst", "200"])
            defer { client.terminate() }
            try await client.waitForOutput(containing: "SUBSCRIBED", timeout: .seconds(30))
            // 400 rows in one statement: sofia owns the even ones.
            try await worker.writer.query(
                """
                INSERT INTO public.rt_py_burst (id, n, owner)
                SELECT n, n, CASE WHEN n % 2 = 0 THEN \(Demo.sofia)::uuid ELSE \(Demo.marcus)::uuid END
                FROM generate_series(1, 400) AS n
                """)
            let code = try await client.exitCode(timeout: .seconds(40))
            #expect(code == 0, "python client failed: \(client.errorOutput.suffix(3000))")
            let line = try #require(client.output.split(separator: "\n").last.map(String.init))
            let numbers = try #require(try RealtimeJSON(parsing: line).arrayValue).compactMap { value -> Int? in
                guard case .number(let n) = value else { return nil }
                return Int(n)
            }
            #expect(numbers == Array(stride(from: 2, through: 400, by: 2)))
        }
    }
}
