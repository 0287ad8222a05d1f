import CompassAuth
import CompassServer
import CompassTestSupport
import CompassTokens
import Foundation
import Testing

/// The official Python `supabase` client, unchanged, signs in against a worker whose access
/// tokens are ES256 (`COMPASS_JWT_SIGNING_KEYS`), reads /rest/v1 and /api and joins realtime with
/// that session, checks the signature itself against `/auth/v1/.well-known/jwks.json`, and sees
/// rotation at work.
@Suite("End to end with the Python supabase client and an ES256 signing key")
struct SigningKeyClientTests {
    /// Throwaway keys made for this test: the worker signs with the first; the second was the
    /// signing key before rotation and is kept by its public half only.
    static let current =
        #"{"kty":"EC","crv":"P-256","kid":"worker-key-2","alg":"ES256","x":"KmhwYllDjlULfDH3C7wRmS82QIZJctxe8fMYj9cakiY","y":"j2zm4QVN7RhO-dYglB95lw3VNIfXGFZaqv9fffxzq6E","d":"gWyUfOr53i_mhPFm0RBkhbXJBrDiX1XxRnK4Wu_eTPs"}"#
    static let previousPublic =
        #"{"kty":"EC","crv":"P-256","kid":"worker-key-1","alg":"ES256","x":"Rqh9Tu2BsVkeE-Yjvz8Y74xOUvr_ryYb8z14BelwrWA","y":"RKbFUKzjr3gRPza1kL-xQOoTlDhmhX94S3negMt3zH4"}"#
    static let previousPrivate = #"{"kty":"EC","crv":"P-256","kid":"KID","alg":"ES256","x":"Rqh9Tu2BsVkeE-Yjvz8Y74xOUvr_ryYb8z14BelwrWA","y":"RKbFUKzjr3gRPza1kL-xQOoTlDhmhX94S3negMt3zH4","d":"D4P57lKhZmMBqf06gtvJ8oZUUnjgH_lXGD88sM3h2TQ"}"#

    @Test func signInReadAndVerifyWithAnES256Session() async throws {
        let python = try await PythonEnvironment.python(with: [RESTClientTests.requirement])
        let setting = #"{"keys":["# + Self.current + "," + Self.previousPublic + "]}"
        let configuration = try ServerConfiguration(environment: [
            "DATABASE_URL": "postgres://unused@127.0.0.1/unused", "COMPASS_JWT_SECRET": ServerHarness.secret,
            "COMPASS_JWT_SIGNING_KEYS": setting,
        ])
        try await ServerHarness.with(adjust: { $0.jwtSigningKeys = configuration.jwtSigningKeys }) { harness in
            let maria = DemoUsers.maria.uuidString.lowercased()
            let previous = try await Self.token(kid: "worker-key-1", subject: maria)
            let retired = try await Self.token(kid: "worker-key-0", subject: maria)
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/jwks_client.py").path
            let run = try await ChildProcess.run(
                [python, script, harness.url, harness.keys.anon, "maria.rivera@example.com", "compass-demo-password",
                 DemoUsers.riveraFamily.uuidString.lowercased(), previous, retired], timeout: .seconds(180))
            #expect(run.code == 0, "python client failed: \(run.error.suffix(3000))")
            guard run.code == 0 else { return }
            let line = try #require(run.output.split(separator: "\n").last)
            let out = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])

            let published = try #require((out["jwks"] as? [String: Any])?["keys"] as? [[String: Any]])
            #expect(published.map { $0["kid"] as? String } == ["worker-key-2", "worker-key-1"])
            #expect(published.allSatisfy { $0["d"] == nil && $0["use"] as? String == "sig" && $0["alg"] as? String == "ES256" })
            #expect(out["jwks_cache_control"] as? String == "public, max-age=600")
            let header = try #require(out["header"] as? [String: Any])
            #expect(header["alg"] as? String == "ES256")
            #expect(header["kid"] as? String == "worker-key-2")
            #expect(out["user"] as? String == maria)
            #expect((out["rows"] as? Int ?? 0) > 0)
            #expect(out["api"] as? Int == 200)
            #expect(out["realtime"] as? String == "subscribed")
            let claims = try #require(out["claims"] as? [String: Any])
            #expect(claims["sub"] as? String == maria && claims["role"] as? String == "authenticated")
            #expect((out["refreshed_header"] as? [String: Any])?["kid"] as? String == "worker-key-2")
            #expect(out["previous_rows"] as? Int == out["rows"] as? Int)
            let retiredAuth = try #require(out["retired_auth"] as? [String: Any])
            #expect(retiredAuth["status"] as? Int == 403)
            #expect(retiredAuth["code"] as? String == "bad_jwt")
            #expect((retiredAuth["message"] as? String)?.contains("no signing key matches the token's kid") == true)
            let retiredREST = try #require(out["retired_rest"] as? [String: Any])
            #expect(retiredREST["code"] as? String == "PGRST301")
            #expect(retiredREST["message"] as? String == "No suitable key or wrong key type")
            let retiredRealtime = try #require(out["retired_realtime"] as? [String?])
            #expect(retiredRealtime.first??.hasSuffix("CHANNEL_ERROR") == true)
            #expect(retiredRealtime.last??.contains("JwtSignatureError: No signing key matches the token's kid") == true)
            let retiredAPI = try #require(out["retired_api"] as? [String: Any])
            #expect(retiredAPI["status"] as? Int == 401)
            #expect(retiredAPI["code"] as? String == "invalid_token")
            #expect(retiredAPI["message"] as? String == "invalid JWT: no signing key matches the token's kid")
        }
    }

    /// An access token for `subject` signed by the previous key under `kid`.
    static func token(kid: String, subject: String) async throws -> String {
        let key = Self.previousPrivate.replacingOccurrences(of: #""kid":"KID""#, with: #""kid":"\#(kid)""#)
        let set = try await SigningKeySet(jwksJSON: #"{"keys":["# + key + "]}")
        return try await AccessTokenIssuer(secret: ServerHarness.secret, signingKey: set.current)
            .token(role: .authenticated, subject: subject, lifetime: 600)
    }
}
