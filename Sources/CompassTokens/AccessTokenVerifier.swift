import Foundation
import JWTKit

/// Verifies HS256 JWTs signed with the project secret (`COMPASS_JWT_SECRET`).
///
/// ```swift
/// let verifier = await AccessTokenVerifier(secret: secret)
/// let claims = try await verifier.verify(token)   // AccessClaims or a AccessTokenError
/// ```
/// Checks, in order: shape, `alg` = HS256, signature, `role` and `exp` present, `exp` in
/// the future, `role` one of anon/authenticated/service_role.
public struct AccessTokenVerifier: Sendable {
    private let keys: JWTKeyCollection

    /// Prepares the key; the secret is used as its UTF-8 bytes, like Supabase's JWT secret.
    public init(secret: String) async throws(JWTSecretError) {
        keys = try await JWTKeyCollection.hs256(secret: secret)
    }

    /// Verifies `token` at `now`.
    public func verify(_ token: String, now: Date = Date()) async throws(AccessTokenError) -> AccessClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerText = Self.base64URLDecoded(parts[0]),
            let payloadText = Self.base64URLDecoded(parts[1]),
            let header = Self.jsonObject(headerText),
            let claims = Self.jsonObject(payloadText)
        else { throw .malformed }
        guard header["alg"] as? String == "HS256" else { throw .badSignature }
        do {
            _ = try await keys.verify(token, as: SignatureOnly.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed
        }
        guard let roleName = claims["role"] as? String, let exp = Self.number(claims["exp"]) else { throw .missingClaims }
        let expiresAt = Date(timeIntervalSince1970: exp)
        guard expiresAt > now else { throw .expired(secondsAgo: Int(now.timeIntervalSince(expiresAt))) }
        guard let role = APIRole(rawValue: roleName) else { throw .unknownRole(roleName) }
        return AccessClaims(role: role, subject: claims["sub"] as? String, expiresAt: expiresAt, claimsJSON: payloadText)
    }

    /// Decodes one base64url part (padding optional) as UTF-8 text.
    static func base64URLDecoded(_ part: Substring) -> String? {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// A JSON object, or nil when `text` is not one.
    static func jsonObject(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }

    /// A JSON number.
    static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    /// The signature is JWTKit's to check; the claims are read from the JSON above.
    private struct SignatureOnly: JWTPayload {
        func verify(using algorithm: some JWTAlgorithm) async throws {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {}
    }
}
