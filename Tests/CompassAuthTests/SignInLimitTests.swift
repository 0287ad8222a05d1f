import CompassAuth
import Foundation
import Testing

@Suite("/auth/v1 sign-in rate limit in Postgres", .serialized)
struct SignInLimitTests {
    @Test("40 concurrent wrong passwords at one email: exactly the budget (10) reach bcrypt, the other 30 get 429")
    func concurrentGuessesStayWithinTheBudget() async throws {
        try await AuthHarness.with { auth in
            // Half on each worker: the budget is one, wherever the attempts land.
            let codes = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<40 {
                    group.addTask { try await auth.signIn(SessionTests.sofia, "wrong-password-\(index)", onPeer: index % 2 == 1).code }
                }
                return try await group.reduce(into: [String?]()) { $0.append($1) }
            }
            // invalid_credentials is only ever answered after bcrypt ran: it counts the checks.
            #expect(codes.count { $0 == "invalid_credentials" } == 10, "codes: \(codes)")
            #expect(codes.count { $0 == "over_request_rate_limit" } == 30)
            let counted = try await auth.query("SELECT count FROM auth.sign_in_attempts WHERE key = 'email:sofia.rivera@example.com'")
            #expect(try counted[0].decode(Int.self, at: 0) == 10, "refused attempts gave their counts back")
            #expect(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword).code == "over_request_rate_limit")
        }
    }

    @Test("the budget is shared by workers; a right password gives its count back; refused guesses leave the address budget")
    func budgetIsSharedAndCountsFailures() async throws {
        var configuration = AuthConfiguration()
        configuration.failedSignInsPerEmail = 3
        configuration.failedSignInsPerAddress = 5
        try await AuthHarness.with(configuration: configuration) { auth in
            // Successes are no failures: five in a row stay within a budget of three.
            for _ in 0..<5 { #expect(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword).status == .ok) }
            for attempt in 0..<3 {
                let reply = try await auth.signIn(SessionTests.sofia, "wrong-password", onPeer: attempt == 1)
                #expect(reply.code == "invalid_credentials")
            }
            // The other worker knows: the right password now gets 429 there too.
            let limited = try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword, onPeer: true)
            #expect(limited.status == .tooManyRequests)
            #expect(limited.code == "over_request_rate_limit")
            #expect(limited["message"] == "Request rate limit reached")
            for _ in 0..<10 { #expect(try await auth.signIn(SessionTests.sofia, "wrong-password").status == .tooManyRequests) }
            // 3 failures (not 14 attempts) are held against this address's budget of 5.
            #expect(try await auth.signIn("maria.rivera@example.com", AuthHarness.demoPassword).status == .ok)
            #expect(try await auth.signIn("maria.rivera@example.com", "wrong-password").code == "invalid_credentials")
            #expect(try await auth.signIn("maria.rivera@example.com", "wrong-password").code == "invalid_credentials")
            #expect(try await auth.signIn("maria.rivera@example.com", AuthHarness.demoPassword).code == "over_request_rate_limit")

            auth.clock.advance(301)
            #expect(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword, onPeer: true).status == .ok)
            // A key starting a new window dropped the windows that had ended.
            let stale = try await auth.query("""
                SELECT count(*)::int FROM auth.sign_in_attempts WHERE window_start < \(auth.clock.now.addingTimeInterval(-300))
                """)
            #expect(try stale[0].decode(Int.self, at: 0) == 0)
        }
    }
}
