import Foundation
import JWTKit

/// Mints HS256 tokens like Supabase's auth server does (`compass token`, tests, benchmarks).
///
/// ```swift
/// let token = try await AccessTokenIssuer(secret: secret).token(role: .authenticated, subject: userID, lifetime: 3600)
/// ```
public struct AccessTokenIssuer: Sendable {
    private let keys: JWTKeyCollection

    /// Prepares the signing key.
    public init(secret: String) async throws(JWTSecretError) {
        keys = try await JWTKeyCollection.hs256(secret: secret)
    }

    /// A token for `role` (and `subject`, the user id) valid for `lifetime` seconds from `now`.
    public func token(
        role: APIRole, subject: String?, lifetime: TimeInterval, now: Date = Date()
    ) async throws -> String {
        let issuedAt = Int(now.timeIntervalSince1970)
        let payload = IssuedClaims(
            aud: role == .authenticated ? "authenticated" : nil, exp: issuedAt + Int(lifetime.rounded()), iat: issuedAt,
            role: role.rawValue, sub: subject)
        return try await sign(payload)
    }

    /// Signs any claim set (the auth server's full Supabase claims, API keys) as HS256.
    public func sign(_ payload: some JWTPayload) async throws -> String {
        try await keys.sign(payload, header: ["alg": "HS256", "typ": "JWT"])
    }

    private struct IssuedClaims: JWTPayload {
        var aud: String?
        var exp: Int
        var iat: Int
        var role: String
        var sub: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
