import CompassAuth
import CompassTestSupport
import CompassTokens
import Foundation
import Testing

/// The official Python `supabase` client, unchanged, signs up, out and in, refreshes, reads
/// through /rest/v1 and receives a realtime INSERT with the session it got from /auth/v1.
/// Fails (never skips) when the virtualenv cannot be made.
@Suite("End to end with the Python supabase client over /auth/v1")
struct AuthClientTests {
    @Test func signInRefreshReadAndListenThroughTheOfficialClient() async throws {
        let python = try await PythonEnvironment.python(with: [RESTClientTests.requirement])
        var auth = AuthConfiguration()
        auth.refreshReuseInterval = 1
        try await ServerHarness.with(auth: auth) { harness in
            let expired = try await AccessTokenIssuer(secret: ServerHarness.secret).token(
                role: .authenticated, subject: DemoUsers.maria.uuidString.lowercased(), lifetime: 60,
                now: Date().addingTimeInterval(-3600))
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/auth_client.py").path
            let run = try await ChildProcess.run(
                [python, script, harness.url, harness.keys.anon, "maria.rivera@example.com", "compass-demo-password",
                 DemoUsers.riveraFamily.uuidString.lowercased(), expired], timeout: .seconds(180))
            #expect(run.code == 0, "python client failed: \(run.error.suffix(3000))")
            guard run.code == 0 else { return }
            let line = try #require(run.output.split(separator: "\n").last)
            let out = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let signUp = try #require(out["sign_up"] as? [String: Any])
            #expect(signUp["has_session"] as? Bool == true)
            #expect(out["after_sign_out"] as? Bool == true)
            let user = try #require(out["user"] as? [String: Any])
            #expect(user["id"] as? String == DemoUsers.maria.uuidString.lowercased())
            #expect(out["refreshed"] as? Bool == true)
            #expect((out["rows"] as? Int ?? 0) > 0)
            let realtime = try #require(out["realtime"] as? [String: Any])
            #expect(realtime["received"] as? String == realtime["inserted"] as? String)
            #expect(out["parent_replay"] as? Bool == true)
            #expect(out["reuse"] as? String == "refresh_token_already_used")
            #expect(out["after_reuse"] as? String == "refresh_token_not_found")
            #expect(out["wrong_password"] as? String == "invalid_credentials")
            #expect(out["unknown_email"] as? String == "invalid_credentials")
            #expect(out["expired"] as? String == "bad_jwt")
        }
    }
}
