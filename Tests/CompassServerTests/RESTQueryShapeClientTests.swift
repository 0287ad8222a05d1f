import CompassTestSupport
import CompassTokens
import Foundation
import Testing

/// The official Python `supabase` client, unchanged, through PostgREST features beyond the
/// seeds' queries (`Python/rest_query_shapes.py` asserts each one); fails, never skips, when
/// the client cannot be installed.
@Suite("PostgREST query shapes through the official Python client")
struct RESTQueryShapeClientTests {
    @Test func queryShapesThroughTheOfficialClient() async throws {
        let python = try await PythonEnvironment.python(with: [RESTClientTests.requirement])
        try await ServerHarness.with { harness in
            let issuer = try await AccessTokenIssuer(secret: ServerHarness.secret)
            var tokens: [String: String] = [:]
            for (name, user) in [("sofia", DemoUsers.sofia), ("maria", DemoUsers.maria)] {
                tokens[name] = try await issuer.token(role: .authenticated, subject: user.uuidString.lowercased(), lifetime: 600)
            }
            let users = ["sofia": DemoUsers.sofia.uuidString.lowercased()]
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/rest_query_shapes.py").path
            let run = try await ChildProcess.run(
                [python, script, harness.url, harness.keys.anon, harness.keys.serviceRole,
                 try RESTClientTests.json(tokens), try RESTClientTests.json(users)],
                timeout: .seconds(180))
            #expect(run.code == 0, "python client failed: \(run.error.suffix(3000))")
            let line = run.output.split(separator: "\n").last.map(String.init) ?? ""
            #expect(line.contains("max-affected"), "unexpected output: \(line)")
        }
    }
}
