import CompassAuth
import CompassTestSupport
import Foundation
import Postgres
import Testing

@Suite("/auth/v1 limits and admin", .serialized)
struct GuardTests {
    @Test("failed sign-ins past the per-email limit get 429 over_request_rate_limit, even with the right password")
    func rateLimit() async throws {
        var configuration = AuthConfiguration()
        configuration.failedSignInsPerEmail = 3
        try await AuthHarness.with(configuration: configuration) { auth in
            for _ in 0..<3 {
                #expect(try await auth.signIn(SessionTests.sofia, "wrong-password").code == "invalid_credentials")
            }
            let limited = try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.code == "over_request_rate_limit")
            #expect(try await auth.signIn("maria.rivera@example.com", AuthHarness.demoPassword).status == .ok)
            auth.clock.advance(301)
            #expect(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword).status == .ok)
        }
    }

    @Test("a body past the limit gets 413 and creates nothing")
    func bodyLimit() async throws {
        var configuration = AuthConfiguration()
        configuration.maximumBodyBytes = 256
        try await AuthHarness.with(configuration: configuration) { auth in
            let padding = String(repeating: "x", count: 400)
            let reply = try await auth.send(
                .post, "/signup", json: #"{"email":"big@example.com","password":"secret-123","data":{"p":"\#(padding)"}}"#)
            #expect(reply.status == .contentTooLarge)
            #expect(reply.code == "request_too_large")
            let count = try await auth.query("SELECT count(*)::int FROM auth.users WHERE email = 'big@example.com'")
            #expect(try count[0].decode(Int.self, at: 0) == 0)
        }
    }

    @Test("admin endpoints refuse a user's token and the anon key; service_role creates, lists, reads, updates, deletes")
    func admin() async throws {
        try await AuthHarness.with { auth in
            let user = try #require(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)["access_token"])
            for bearer in [user, auth.keys.anon] {
                let refused = try await auth.send(.get, "/admin/users", bearer: bearer)
                #expect(refused.status == .forbidden)
                #expect(refused.code == "not_admin")
            }
            let admin = auth.keys.serviceRole
            let created = try await auth.send(
                .post, "/admin/users", bearer: admin,
                json: #"{"email":"coach@example.com","password":"coach-pass","email_confirm":true,"app_metadata":{"team":"a"}}"#)
            #expect(created.status == .ok)
            let id = try #require(created["id"])
            #expect((created.object["app_metadata"] as? [String: Any])?["provider"] as? String == "email")
            #expect(try await auth.signIn("coach@example.com", "coach-pass").status == .ok)
            let list = try await auth.send(.get, "/admin/users?page=1&per_page=3", bearer: admin)
            #expect((list.object["users"] as? [Any])?.count == 3)
            #expect(list.headers[.init("X-Total-Count")!] == "8")
            let updated = try await auth.send(.put, "/admin/users/\(id)", bearer: admin, json: #"{"user_metadata":{"n":1}}"#)
            #expect((updated.object["user_metadata"] as? [String: Any])?["n"] as? Int == 1)
            #expect(try await auth.send(.delete, "/admin/users/\(id)", bearer: admin).status == .ok)
            #expect(try await auth.send(.get, "/admin/users/\(id)", bearer: admin).code == "user_not_found")
            #expect(try await auth.send(.get, "/admin/users/not-a-uuid", bearer: admin).status == .notFound)
        }
    }

    @Test("an unknown email costs a bcrypt check like a wrong password, so timing does not reveal accounts")
    func unknownEmailsRunBcryptToo() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let connection = try await database.connect()
            let store = AuthStore(pool: PostgresPool(configuration: database.configuration, logger: TestDatabase.logger))
            // Count calls of pgcrypto's crypt() (the pending counts are not flushed inside a transaction).
            try await connection.query("SET track_functions = 'all'")
            func cryptCalls(_ email: String, _ password: String) async throws -> (Int, AuthStore.Authentication) {
                try await connection.withTransaction { tx in
                    func calls() async throws -> Int {
                        let rows = try await tx.query(
                            "SELECT coalesce(sum(calls), 0)::int FROM pg_stat_xact_user_functions WHERE funcname = 'crypt'")
                        return try rows[0].decode(Int.self, at: 0)
                    }
                    let before = try await calls()
                    let outcome = try await store.authenticate(email: email, password: password, on: tx)
                    return (try await calls() - before, outcome)
                }
            }
            let (unknown, unknownOutcome) = try await cryptCalls("nobody-here@example.com", "whatever-password")
            let (wrong, wrongOutcome) = try await cryptCalls("sofia.rivera@example.com", "not-her-password")
            let (right, rightOutcome) = try await cryptCalls("sofia.rivera@example.com", AuthHarness.demoPassword)
            #expect(unknown == 1 && wrong == 1 && right == 1)
            if case .invalid = unknownOutcome {} else { Issue.record("an unknown email must be refused") }
            if case .invalid = wrongOutcome {} else { Issue.record("a wrong password must be refused") }
            if case .valid = rightOutcome {} else { Issue.record("the right password must sign in") }
            await connection.close()
        }
    }
}
