import Foundation

/// A token's time claims (`exp`, `nbf`, `iat`) and the checks PostgREST makes on them.
///
/// `nbf` and `iat` may lie up to ``clockSkewAllowance`` in the future, PostgREST's 30 s,
/// because the token's issuer may run a clock slightly ahead of ours and a freshly
/// issued token should not bounce. `exp` gets no such leeway (PostgREST allows 30 s too):
/// GoTrue and Supabase Realtime refuse at `exp`, and Realtime's subscription sweep drops
/// channels at `expiresAt`, so a token accepted late would be cut off at once anyway.
///
/// All arithmetic stays in `Double` on finite values; the one conversion to `Int` (the
/// seconds in the expiry reason) clamps, so no claim value can trap.
struct TokenLifetime: Hashable {
    /// How far in the future `nbf` and `iat` may lie, in seconds.
    static let clockSkewAllowance: Double = 30

    /// `exp`, seconds since 1970; nil when the token has none.
    var expiresAt: Double?
    /// `nbf`, if present.
    var notBefore: Double?
    /// `iat`, if present.
    var issuedAt: Double?

    /// Reads the claims; a present claim that is not a finite number is refused by name.
    ///
    /// Whether a missing `exp` is acceptable is the caller's rule (``ExpiryRule``).
    init(exp: ClaimValue?, nbf: ClaimValue?, iat: ClaimValue?) throws(AccessTokenError) {
        expiresAt = try exp.map { value throws(AccessTokenError) in try Self.seconds(value, claim: "exp") }
        notBefore = try nbf.map { value throws(AccessTokenError) in try Self.seconds(value, claim: "nbf") }
        issuedAt = try iat.map { value throws(AccessTokenError) in try Self.seconds(value, claim: "iat") }
    }

    /// Refuses a token expired at `now`, or dated further in the future than the skew allows.
    func check(at now: Date) throws(AccessTokenError) {
        let now = now.timeIntervalSince1970
        if let expiresAt, expiresAt <= now { throw .expired(secondsAgo: Self.wholeSeconds(now - expiresAt)) }
        if let notBefore, notBefore - Self.clockSkewAllowance > now { throw .missingClaims(.notValidYet) }
        if let issuedAt, issuedAt - Self.clockSkewAllowance > now { throw .missingClaims(.issuedInFuture) }
    }

    /// `expiresAt` as a date (finite, so always representable).
    var expiryDate: Date? { expiresAt.map(Date.init(timeIntervalSince1970:)) }

    private static func seconds(_ value: ClaimValue, claim: String) throws(AccessTokenError) -> Double {
        guard case .number(let seconds) = value else { throw .missingClaims(.notANumber(claim: claim)) }
        return seconds
    }

    /// `seconds` truncated to an `Int`, clamped to its range (`Int(_:)` traps outside it).
    static func wholeSeconds(_ seconds: Double) -> Int {
        guard !seconds.isNaN else { return 0 }
        if seconds >= Double(Int.max) { return .max }
        if seconds <= Double(Int.min) { return .min }
        return Int(seconds)
    }
}
