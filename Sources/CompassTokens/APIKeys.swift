import Foundation

/// The project's two API keys, as Supabase issues them: long-lived HS256 JWTs with role
/// `anon` and `service_role`, signed with the JWT secret.
///
/// ```swift
/// let keys = try APIKeys(secret: secret)
/// print(keys.anon, keys.serviceRole)
/// ```
/// The keys are derived, never stored: the claims are fixed (issued 2025-01-01, expiring
/// 2035-01-01) and written byte for byte here, so every process (`compass keys`, `make run`,
/// the worker) makes the same keys from the same secret.
public struct APIKeys: Sendable {
    /// The public key apps ship with; requests made with it alone run as `anon`.
    public let anon: String
    /// The admin key: `service_role` bypasses RLS. Never ship it in an app.
    public let serviceRole: String

    static let issuedAt = 1_735_689_600
    static let expiresAt = 2_051_222_400

    /// Derives both keys from `secret`.
    public init(secret: String) throws(JWTSecretError) {
        try JWTSecretError.check(secret)
        anon = Self.key(role: .anon, secret: secret)
        serviceRole = Self.key(role: .serviceRole, secret: secret)
    }

    static func key(role: APIRole, secret: String) -> String {
        HS256Text.token(
            claimsJSON: #"{"exp":\#(expiresAt),"iat":\#(issuedAt),"iss":"compass","role":"\#(role.rawValue)"}"#, secret: secret)
    }
}
