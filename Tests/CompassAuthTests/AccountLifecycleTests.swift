import Foundation
import Testing

@testable import CompassAuth

/// Anonymous accounts and the reauthentication a password change may need, in process.
@Suite("/auth/v1 anonymous accounts and reauthentication", .serialized)
struct AccountLifecycleTests {
    static let maria = "maria.rivera@example.com"

    @Test("anonymous sign-ins: off by default, then a session whose user and token say is_anonymous")
    func anonymousSignIns() async throws {
        try await AuthHarness.with { auth in
            let refused = try await auth.send(.post, "/signup", json: "{}")
            #expect(refused.status == .unprocessableContent)
            #expect(refused.code == "anonymous_provider_disabled")
        }
        var configuration = AuthConfiguration()
        configuration.anonymousUsers = true
        configuration.anonymousSignUpsPerHour = 2
        try await AuthHarness.with(configuration: configuration) { auth in
            #expect(try await auth.send(.get, "/settings").text.contains(#""anonymous_users":true"#))
            let reply = try await auth.send(.post, "/signup", json: #"{"data":{"nickname":"guest"}}"#)
            #expect(reply.status == .ok)
            let user = try #require(reply.object["user"] as? [String: Any])
            #expect(user["is_anonymous"] as? Bool == true)
            #expect((user["identities"] as? [Any])?.isEmpty == true)
            #expect(user["email"] == nil || user["email"] is NSNull)
            let token = try #require(reply["access_token"])
            let claims = try await auth.verifier.verify(token)
            #expect(claims.role == .authenticated)
            #expect(claims.claimsJSON.contains(#""is_anonymous":true"#))
            #expect(claims.claimsJSON.contains(#""method":"anonymous""#))
            let password = try await auth.send(.put, "/user", bearer: token, json: #"{"password":"anon-password"}"#)
            #expect(password.status == .unprocessableContent)
            #expect(password.code == "validation_failed")
            #expect(try await auth.send(.post, "/signup", json: "{}").status == .ok)
            #expect(try await auth.send(.post, "/signup", json: "{}").status == .tooManyRequests, "the hourly budget per address")
        }
    }

    @Test("with secure password change, a day-old session needs the mailed code, which works once")
    func reauthentication() async throws {
        var configuration = AuthConfiguration()
        configuration.securePasswordChange = true
        try await AuthHarness.with(configuration: configuration) { auth in
            let token = try #require(try await auth.signIn(Self.maria, AuthHarness.demoPassword)["access_token"])
            // A fresh session changes the password without a code.
            #expect(try await auth.send(.put, "/user", bearer: token, json: #"{"password":"fresh-password"}"#).status == .ok)
            // A session that started two days ago (the tokens themselves are fresh).
            let refreshed = try #require(try await auth.signIn(Self.maria, "fresh-password")["access_token"])
            _ = try await auth.query("UPDATE auth.sessions SET created_at = created_at - interval '2 days'")
            let needed = try await auth.send(.put, "/user", bearer: refreshed, json: #"{"password":"later-password"}"#)
            #expect(needed.status == .badRequest)
            #expect(needed.code == "reauthentication_needed")
            #expect(try await auth.send(.get, "/reauthenticate", bearer: refreshed).text == "{}")
            let wrong = try await auth.send(.put, "/user", bearer: refreshed, json: #"{"password":"later-password","nonce":"000000"}"#)
            #expect(wrong.status == .forbidden)
            #expect(wrong.code == "reauthentication_not_valid")
            // The code the mail would carry (no SMTP server here): issued and stored as the mail's.
            let mailed = OneTimeTokenKey(secret: AuthHarness.secret).issue(for: Self.maria)
            _ = try await auth.query("""
                UPDATE auth.one_time_tokens SET token_hash = \(mailed.storedHash), created_at = \(auth.clock.now)
                 WHERE token_type = 'reauthentication_token'
                """)
            let body = #"{"password":"later-password","nonce":"\#(mailed.code)"}"#
            #expect(try await auth.send(.put, "/user", bearer: refreshed, json: body).status == .ok)
            #expect(try await auth.send(.put, "/user", bearer: refreshed, json: body).code == "reauthentication_not_valid")
            #expect(try await auth.signIn(Self.maria, "later-password").status == .ok)
        }
    }
}
