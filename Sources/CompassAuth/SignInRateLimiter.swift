import Foundation

/// Limits password sign-ins per email and per client address, counted in Postgres before bcrypt.
///
/// ```swift
/// let attempt = try await limiter.admit(email: email, address: address, now: now)  // 429 past the budget
/// if passwordMatched { await limiter.refund(attempt) }
/// ```
/// Every attempt is counted first, atomically (``AuthStore/countSignInAttempt(keys:now:window:)``),
/// and only one whose counts are within both budgets goes on to bcrypt: 40 concurrent guesses
/// at one email with a budget of 10 run bcrypt exactly 10 times, however many workers serve
/// them, since the counters live in `auth.sign_in_attempts` and not in a process. (Checking
/// first and counting after bcrypt, as an in-memory limiter did, lets every concurrent guess
/// pass the check.) An attempt gives its count back when it is refused or its password
/// matched, so a count is failures plus attempts in flight, and the budget one of failures,
/// as before: a user signing in often is never slowed, guesses at one email do not spend the
/// address's budget once refused, and a right password after the budget is spent still gets
/// 429. A key's window ends a fixed time after its first attempt.
public struct SignInRateLimiter: Sendable {
    let store: AuthStore
    let perEmail: Int
    let perAddress: Int
    let window: TimeInterval
    let verificationsPerAddress: Int
    let anonymousSignUpsPerAddress: Int
    let clientRegistrationsPerAddress: Int

    /// One counted attempt, to refund when its password matched.
    struct Attempt: Sendable {
        var keys: [String]
    }

    /// A limiter over `store`'s table with the configuration's budgets.
    public init(store: AuthStore, configuration: AuthConfiguration) {
        self.store = store
        perEmail = configuration.failedSignInsPerEmail
        perAddress = configuration.failedSignInsPerAddress
        window = configuration.rateLimitWindow
        verificationsPerAddress = configuration.verificationsPerAddress
        anonymousSignUpsPerAddress = configuration.anonymousSignUpsPerHour
        clientRegistrationsPerAddress = configuration.oauthRegistrationsPerHour
    }

    /// Counts an attempt for `email` from `address`; throws 429 when either budget is spent.
    func admit(email: String, address: String, now: Date) async throws -> Attempt {
        try await admit(["email:" + email: perEmail, "address:" + address: perAddress], now: now)
    }

    /// Counts a `/verify` attempt (a guess at a mailed code) from `address`, with its own budget.
    func admitVerification(address: String, now: Date) async throws -> Attempt {
        try await admit(["verify:" + address: verificationsPerAddress], now: now)
    }

    /// Counts an anonymous sign-up from `address` (GoTrue's hourly budget per address); never refunded.
    func admitAnonymousSignUp(address: String, now: Date) async throws -> Attempt {
        try await admit(["anonymous:" + address: anonymousSignUpsPerAddress], now: now, window: 3600)
    }

    /// Counts a dynamic OAuth client registration from `address` (an hourly budget); never refunded.
    func admitClientRegistration(address: String, now: Date) async throws -> Attempt {
        try await admit(["oauth-client:" + address: clientRegistrationsPerAddress], now: now, window: 3600)
    }

    /// Counts one attempt on each key; throws 429 when any key is past its budget.
    private func admit(_ budgets: [String: Int], now: Date, window: TimeInterval? = nil) async throws -> Attempt {
        let keys = budgets.keys.sorted()
        let counts = try await store.countSignInAttempt(keys: keys, now: now, window: window ?? self.window)
        let attempt = Attempt(keys: keys)
        guard budgets.allSatisfy({ counts[$0.key, default: .max] <= $0.value }) else {
            try await refund(attempt)
            throw AuthError.rateLimited
        }
        return attempt
    }

    /// Gives `attempt`'s count back: it was refused, or its password matched, so it was no failure.
    func refund(_ attempt: Attempt) async throws {
        try await store.refundSignInAttempt(keys: attempt.keys)
    }
}
