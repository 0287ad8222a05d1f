import CompassTestSupport
import Foundation
import HTTPTypes
import Testing

/// `DELETE /admin/users/{id}` with `should_soft_delete`, as supabase-py's and supabase-swift's
/// `delete_user(id, should_soft_delete=True)` send it.
@Suite("/auth/v1 admin soft delete")
struct SoftDeleteTests {
    static let sofia = "sofia.rivera@example.com"

    func count(_ auth: AuthHarness, _ table: String) async throws -> Int {
        try await auth.query("SELECT count(*)::int FROM \(unescaped: table) WHERE logged_by = \(DemoFixture.sofia)")
            .first?.decode(Int.self, at: 0) ?? -1
    }

    @Test("a soft delete keeps the account's rows and what references it, and leaves it unusable")
    func softDelete() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            let session = try await auth.signIn(Self.sofia, AuthHarness.demoPassword)
            let refresh = try #require(session["refresh_token"])
            let interactions = try await count(auth, "public.interactions")
            #expect(interactions > 0)

            let malformed = try await auth.send(
                .delete, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: #"{"should_soft_delete":"yes"}"#)
            #expect(malformed.code == "bad_json")
            let deleted = try await auth.send(
                .delete, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: #"{"should_soft_delete":true}"#)
            #expect(deleted.status == .ok)
            #expect(deleted.text == "{}")

            // Her rows elsewhere are still there; the account is, marked and emptied.
            #expect(try await count(auth, "public.interactions") == interactions)
            let user = try await auth.send(.get, "/admin/users/\(DemoFixture.sofia)", bearer: admin)
            #expect(user["deleted_at"] != nil)
            #expect(user["email"] != nil && user["email"] != Self.sofia)
            #expect((user.object["user_metadata"] as? [String: Any])?.isEmpty == true)
            let identities = try #require(user.object["identities"] as? [[String: Any]])
            #expect(identities.allSatisfy { ($0["identity_data"] as? [String: Any])?.isEmpty == true })
            let password = try await auth.query(
                "SELECT encrypted_password IS NULL AND deleted_at IS NOT NULL FROM auth.users WHERE id = \(DemoFixture.sofia)")
            #expect(try password.first?.decode(Bool.self, at: 0) == true)

            // She cannot sign in or refresh, and her address is free for a new account.
            #expect(try await auth.signIn(Self.sofia, AuthHarness.demoPassword).code == "invalid_credentials")
            #expect(try await auth.refresh(refresh).status != .ok)
            let again = try await auth.send(
                .post, "/admin/users", bearer: admin, json: json(["email": Self.sofia, "password": "new-password-123"]))
            #expect(again.status == .ok)
            #expect(again["id"] != DemoFixture.sofia.uuidString.lowercased())

            // A second soft delete changes nothing; a hard one removes the row and its rows.
            let deletedAt = user["deleted_at"]
            let twice = try await auth.send(
                .delete, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: #"{"should_soft_delete":true}"#)
            #expect(twice.status == .ok)
            #expect(try await auth.send(.get, "/admin/users/\(DemoFixture.sofia)", bearer: admin)["deleted_at"] == deletedAt)
            let hard = try await auth.send(.delete, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: #"{"should_soft_delete":false}"#)
            #expect(hard.status == .ok)
            #expect(try await auth.send(.get, "/admin/users/\(DemoFixture.sofia)", bearer: admin).code == "user_not_found")
            #expect(try await count(auth, "public.interactions") == 0)
        }
    }

    @Test("without a body, delete is the hard delete it always was")
    func hardDeleteWithoutABody() async throws {
        try await AuthHarness.with { auth in
            let deleted = try await auth.send(.delete, "/admin/users/\(DemoFixture.sofia)", bearer: auth.keys.serviceRole)
            #expect(deleted.status == .ok)
            #expect(try await count(auth, "public.interactions") == 0)
            #expect(try await auth.send(.delete, "/admin/users/\(UUID())", bearer: auth.keys.serviceRole, json: #"{"should_soft_delete":true}"#)
                .code == "user_not_found")
        }
    }

    @Test("a second soft delete, or an admin update after one, changes nothing")
    func deletedStaysDeleted() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            let path = "/admin/users/\(DemoFixture.sofia)"
            #expect(try await auth.send(.delete, path, bearer: admin, json: #"{"should_soft_delete":true}"#).status == .ok)
            let first = try await auth.send(.get, path, bearer: admin)
            let revived = try await auth.send(.put, path, bearer: admin, json: json(["email": "back@example.com", "password": "a-long-password"]))
            #expect(revived.code == "user_not_found")
            #expect(try await auth.signIn("back@example.com", "a-long-password").code == "invalid_credentials")
            #expect(try await auth.send(.delete, path, bearer: admin, json: #"{"should_soft_delete":true}"#).status == .ok)
            let second = try await auth.send(.get, path, bearer: admin)
            #expect(second["updated_at"] == first["updated_at"])
            #expect(second["email"] == first["email"])
        }
    }

    @Test("the key is matched ignoring case, as GoTrue's decoder matches it; given twice it is refused")
    func keyCase() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            let path = "/admin/users/\(DemoFixture.sofia)"
            let interactions = try await count(auth, "public.interactions")
            for body in [#"{"should_soft_delete":false,"should_soft_delete":true}"#, #"{"should_soft_delete":true,"Should_Soft_Delete":false}"#] {
                #expect(try await auth.send(.delete, path, bearer: admin, json: body).code == "bad_json", "\(body)")
            }
            #expect(try await auth.send(.delete, path, bearer: admin, json: #"{"Should_Soft_Delete":true}"#).status == .ok)
            #expect(try await count(auth, "public.interactions") == interactions)
            #expect(try await auth.send(.get, path, bearer: admin)["deleted_at"] != nil)
        }
    }

    @Test("a sign-in that meets a soft delete still in progress waits for it, then is refused")
    func signInRacingADelete() async throws {
        try await AuthHarness.with { auth in
            let blocker = try await auth.database.connect()
            _ = try await blocker.query("BEGIN")
            _ = try await blocker.query("UPDATE auth.users SET deleted_at = now() WHERE id = \(DemoFixture.sofia)")
            async let signIn = auth.signIn(Self.sofia, AuthHarness.demoPassword)
            try await Task.sleep(for: .milliseconds(300))
            _ = try await blocker.query("COMMIT")
            await blocker.close()
            #expect(try await signIn.code == "invalid_credentials")
            let sessions = try await auth.query("SELECT count(*)::int FROM auth.sessions WHERE user_id = \(DemoFixture.sofia)")
            #expect(try sessions.first?.decode(Int.self, at: 0) == 0)
        }
    }

    /// A refresh holds its session's row, then takes a key-share lock on the account (inserting
    /// the new token that references it). An admin change that ends sessions must not hold a
    /// lock that key-share waits for by then, or the two wait for each other (a deadlock: one
    /// of them a 500).
    @Test("ending sessions while a refresh is half done waits for the refresh, not a deadlock")
    func noDeadlockWithARefresh() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            let changes: [(HTTPRequest.Method, String)] = [
                (.put, #"{"email":"sofia.new@example.com","ban_duration":"1h"}"#),
                (.put, #"{"email":"sofia.newer@example.com","password":"a-long-password"}"#),
                (.delete, #"{"should_soft_delete":true}"#),
            ]
            for (method, body) in changes {
                let reset = try await auth.send(
                    .put, "/admin/users/\(DemoFixture.sofia)", bearer: admin,
                    json: json(["ban_duration": "none", "email": Self.sofia, "password": AuthHarness.demoPassword]))
                #expect(reset.status == .ok)
                #expect(try await auth.signIn(Self.sofia, AuthHarness.demoPassword).status == .ok)
                let refresh = try await auth.database.connect()
                _ = try await refresh.query("BEGIN")
                _ = try await refresh.query("SELECT id FROM auth.sessions WHERE user_id = \(DemoFixture.sofia) FOR UPDATE")
                async let change = auth.send(method, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: body)
                try await Task.sleep(for: .milliseconds(300))
                _ = try await refresh.query("SELECT 1 FROM auth.users WHERE id = \(DemoFixture.sofia) FOR KEY SHARE")
                _ = try await refresh.query("COMMIT")
                await refresh.close()
                #expect(try await change.status == .ok, "\(body)")
            }
        }
    }

    /// `/verify` locks its token before the account; a soft delete the account before the
    /// tokens. When they meet, Postgres ends one of them: the request is run again, not a 500.
    @Test("a verification that deadlocks with a soft delete is run again")
    func verifyRacingADelete() async throws {
        try await AuthHarness.with { auth in
            let link = try await auth.send(
                .post, "/admin/generate_link", bearer: auth.keys.serviceRole, json: json(["type": "magiclink", "email": Self.sofia]))
            let hash = try #require(link["hashed_token"])
            let delete = try await auth.database.connect()
            // The request's session, not this one, is to find the deadlock: on a loaded machine the
            // request may start waiting after this session does, and the first to look is ended.
            _ = try await delete.query("SET deadlock_timeout = '30s'")
            _ = try await delete.query("BEGIN")
            _ = try await delete.query("SELECT 1 FROM auth.users WHERE id = \(DemoFixture.sofia) FOR NO KEY UPDATE")
            async let verify = auth.send(.post, "/verify", json: json(["type": "magiclink", "token_hash": hash]))
            try await Task.sleep(for: .milliseconds(300))
            _ = try await delete.query("DELETE FROM auth.one_time_tokens WHERE user_id = \(DemoFixture.sofia)")
            _ = try await delete.query("UPDATE auth.users SET deleted_at = now() WHERE id = \(DemoFixture.sofia)")
            _ = try await delete.query("COMMIT")
            await delete.close()
            let reply = try await verify
            #expect(reply.status == .forbidden)
            #expect(reply.code == "otp_expired")
        }
    }

    @Test("a recovery mail asked for while the account is being deleted leaves no token behind")
    func recoverRacingADelete() async throws {
        try await AuthHarness.with { auth in
            let delete = try await auth.database.connect()
            _ = try await delete.query("BEGIN")
            _ = try await delete.query("UPDATE auth.users SET deleted_at = now() WHERE id = \(DemoFixture.sofia)")
            async let recover = auth.send(.post, "/recover", json: json(["email": Self.sofia]))
            try await Task.sleep(for: .milliseconds(300))
            _ = try await delete.query("COMMIT")
            await delete.close()
            #expect(try await recover.status == .ok)
            let tokens = try await auth.query("SELECT count(*)::int FROM auth.one_time_tokens WHERE user_id = \(DemoFixture.sofia)")
            #expect(try tokens.first?.decode(Int.self, at: 0) == 0)
        }
    }
}
