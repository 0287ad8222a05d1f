import Foundation
import JWTKit

/// The project's two API keys, as Supabase issues them: long-lived HS256 JWTs with role
/// `anon` and `service_role`, signed with the JWT secret.
///
/// ```swift
/// let keys = try await APIKeys(secret: secret)
/// print(keys.anon, keys.serviceRole)
/// ```
/// The claims are fixed (issued 2025-01-01, expiring 2035-01-01), so the same secret always
/// yields the same keys: `compass keys`, `make run` and the worker agree without storing them.
public struct APIKeys: Sendable {
    /// The public key apps ship with; requests made with it alone run as `anon`.
    public let anon: String
    /// The admin key: `service_role` bypasses RLS. Never ship it in an app.
    public let serviceRole: String

    static let issuedAt = 1_735_689_600
    static let expiresAt = 2_051_222_400

    /// Derives both keys from `secret`.
    public init(secret: String) async throws {
        let issuer = try await AccessTokenIssuer(secret: secret)
        anon = try await issuer.sign(KeyClaims(role: APIRole.anon.rawValue))
        serviceRole = try await issuer.sign(KeyClaims(role: APIRole.serviceRole.rawValue))
    }

    private struct KeyClaims: JWTPayload {
        var iss = "compass"
        var role: String
        var iat = APIKeys.issuedAt
        var exp = APIKeys.expiresAt

        init(role: String) { self.role = role }

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
