import CompassTestSupport
import CompassTokens
import Foundation
import Testing

/// `/api` on the real compass-worker (every API on one port), called over HTTP by the README's Python example.
@Suite("/api on the live server")
struct AppAPIServerTests {
    static let sofia = "a1000000-0000-4000-8000-000000000003"
    static let marcus = "a1000000-0000-4000-8000-000000000005"

    @Test func theREADMEExampleRunsAgainstTheLiveServer() async throws {
        try await ServerHarness.with { harness in
            let issuer = try await AccessTokenIssuer(secret: ServerHarness.secret)
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/app_api.py").path
            let run = try await ChildProcess.run([
                "/usr/bin/env", "python3", script, harness.url, harness.keys.anon,
                try await issuer.token(role: .authenticated, subject: Self.sofia, lifetime: 600),
                try await issuer.token(role: .authenticated, subject: Self.marcus, lifetime: 600),
            ], timeout: .seconds(60))
            #expect(run.code == 0, "\(run.error.suffix(2000))")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
            let feed = try #require(summary["feed"] as? [Int])
            #expect(feed[0] == 200 && feed[1] > 0 && feed[2] > 0, "\(feed)")
            let before = try #require((summary["interactions"] as? [Int])?.last)
            #expect((summary["interactions"] as? [Int])?.first == 200)
            #expect((summary["notifications"] as? [Int])?.first == 200)
            #expect(summary["marcus_sees_sofias"] as? Bool == false)
            #expect((summary["marcus_delete"] as? [Any])?.first as? Int == 404)
            #expect((summary["unconfirmed"] as? [Any])?.first as? Int == 400)
            let delete = try #require(summary["delete"] as? [Any])
            #expect(delete.first as? Int == 200)
            let reply = try #require(delete.last as? [String: Any])
            #expect(reply["success"] as? Bool == true)
            #expect(reply["deleted"] as? [String: Int] == ["interactions": 1])
            #expect(reply["message"] as? String == "Interaction deleted")
            #expect(summary["after"] as? [Int] == [200, before - 1])
        }
    }
}
