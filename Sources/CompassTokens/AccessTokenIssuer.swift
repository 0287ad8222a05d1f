import Foundation
import JWTKit

/// Mints tokens like Supabase's auth server does (`compass token`, tests, benchmarks): HS256
/// with the secret, or ES256/RS256 with a signing key (its `kid` in the header) when one is given.
///
/// ```swift
/// let token = try await AccessTokenIssuer(secret: secret).token(role: .authenticated, subject: userID, lifetime: 3600)
/// ```
public struct AccessTokenIssuer: Sendable {
    private let keys: JWTKeyCollection
    /// The asymmetric key that signs instead of the secret, if any.
    private let signingKey: SigningKey?

    /// Prepares the signing key: `signingKey` when given (it must hold its private part), else the secret.
    public init(secret: String, signingKey: SigningKey? = nil) async throws(JWTSecretError) {
        keys = try await JWTKeyCollection.hs256(secret: secret)
        self.signingKey = signingKey
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

    /// Signs any claim set (the auth server's full Supabase claims, API keys): with the signing
    /// key if there is one, else as HS256.
    public func sign(_ payload: some JWTPayload) async throws -> String {
        if let signingKey {
            guard let token = try await signingKey.sign(payload) else { throw SigningKeyError("key \"\(signingKey.kid)\" has no private part") }
            return token
        }
        return try await keys.sign(payload, header: ["alg": "HS256", "typ": "JWT"])
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
