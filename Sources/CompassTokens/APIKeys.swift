import Crypto
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
        let header = #"{"alg":"HS256","typ":"JWT"}"#
        let claims = #"{"exp":\#(expiresAt),"iat":\#(issuedAt),"iss":"compass","role":"\#(role.rawValue)"}"#
        let signingInput = base64URL(Data(header.utf8)) + "." + base64URL(Data(claims.utf8))
        let signature = HMAC<SHA256>.authenticationCode(
            for: Data(signingInput.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return signingInput + "." + base64URL(Data(signature))
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
