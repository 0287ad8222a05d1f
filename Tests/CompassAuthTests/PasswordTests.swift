import CompassAuth
import CompassTestSupport
import Foundation
import Testing

@Suite("/auth/v1 password changes and limits", .serialized)
struct PasswordTests {
    /// A fresh session of Sofia's: its access and refresh tokens.
    static func session(_ auth: AuthHarness) async throws -> (access: String, refresh: String) {
        let reply = try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)
        return (try #require(reply["access_token"]), try #require(reply["refresh_token"]))
    }

    /// Whether a session still answers at `/user` (sessions are checked there by `session_id`).
    static func alive(_ auth: AuthHarness, _ session: (access: String, refresh: String)) async throws -> Bool {
        try await auth.send(.get, "/user", bearer: session.access).status == .ok
    }

    @Test("a new password at PUT /user signs out every other session of the user; the one that changed it stays")
    func userPasswordChangeEndsOtherSessions() async throws {
        try await AuthHarness.with { auth in
            let changer = try await Self.session(auth), other = try await Self.session(auth), third = try await Self.session(auth)
            // Metadata alone ends nothing.
            #expect(try await auth.send(.put, "/user", bearer: changer.access, json: #"{"data":{"a":1}}"#).status == .ok)
            #expect(try await Self.alive(auth, other))

            let changed = try await auth.send(.put, "/user", bearer: changer.access, json: #"{"password":"a-new-password-1"}"#)
            #expect(changed.status == .ok)
            #expect(try await Self.alive(auth, changer))
            for ended in [other, third] {
                let user = try await auth.send(.get, "/user", bearer: ended.access)
                #expect(user.status == .forbidden)
                #expect(user.code == "session_not_found")
                #expect(try await auth.refresh(ended.refresh).code == "refresh_token_not_found")
            }
            #expect(try await auth.refresh(changer.refresh).status == .ok)
        }
    }

    @Test("an admin password change signs out every session of the user; a metadata change none")
    func adminPasswordChangeEndsAllSessions() async throws {
        try await AuthHarness.with { auth in
            let first = try await Self.session(auth), second = try await Self.session(auth)
            let path = "/admin/users/\(DemoFixture.sofia)"
            let admin = auth.keys.serviceRole
            #expect(try await auth.send(.put, path, bearer: admin, json: #"{"user_metadata":{"n":1}}"#).status == .ok)
            #expect(try await Self.alive(auth, first))
            #expect(try await auth.send(.put, path, bearer: admin, json: #"{"password":"set-by-admin-1"}"#).status == .ok)
            for ended in [first, second] {
                #expect(try await auth.send(.get, "/user", bearer: ended.access).code == "session_not_found")
                #expect(try await auth.refresh(ended.refresh).code == "refresh_token_not_found")
            }
            let left = try await auth.query("SELECT count(*)::int FROM auth.sessions WHERE user_id = \(DemoFixture.sofia)")
            #expect(try left[0].decode(Int.self, at: 0) == 0)
            #expect(try await auth.signIn(SessionTests.sofia, "set-by-admin-1").status == .ok)
        }
    }

    @Test("a password over 72 bytes (bcrypt reads 72) gets GoTrue's 400 at sign-up, PUT /user and admin create/update")
    func passwordsOverSeventyTwoBytes() async throws {
        try await AuthHarness.with { auth in
            // 37 two-byte characters: 37 characters, 74 bytes. 72 bytes exactly is accepted.
            let tooLong = String(repeating: "é", count: 37), longest = String(repeating: "p", count: 72)
            let admin = auth.keys.serviceRole
            let session = try await Self.session(auth)
            let replies = [
                try await auth.send(.post, "/signup", json: json(["email": "long@example.com", "password": tooLong])),
                try await auth.send(.put, "/user", bearer: session.access, json: json(["password": tooLong])),
                try await auth.send(
                    .post, "/admin/users", bearer: admin, json: json(["email": "long@example.com", "password": tooLong])),
                try await auth.send(.put, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: json(["password": tooLong])),
            ]
            for reply in replies {
                #expect(reply.status == .badRequest)
                #expect(reply.code == "validation_failed")
                #expect(reply["message"] == "Password cannot be longer than 72 characters")
                #expect(!reply.text.contains(tooLong))
            }
            let users = try await auth.query("SELECT count(*)::int FROM auth.users WHERE email = 'long@example.com'")
            #expect(try users[0].decode(Int.self, at: 0) == 0)
            #expect(try await Self.alive(auth, session), "the refused change ended no session")
            #expect(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword).status == .ok)

            let accepted = try await auth.send(.post, "/signup", json: json(["email": "long@example.com", "password": longest]))
            #expect(accepted.status == .ok)
            #expect(try await auth.signIn("long@example.com", longest).status == .ok)
        }
    }
}
