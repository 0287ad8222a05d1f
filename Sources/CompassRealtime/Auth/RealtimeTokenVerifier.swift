import Foundation
import JWTKit

/// Verifies HS256 JWTs signed with the project secret (`COMPASS_JWT_SECRET`).
///
/// ```swift
/// let verifier = await RealtimeTokenVerifier(secret: secret)
/// let claims = try await verifier.verify(token)   // RealtimeClaims or a RealtimeTokenError
/// ```
/// Checks, in order: shape, `alg` = HS256, signature, `role` and `exp` present, `exp` in
/// the future, `role` one of anon/authenticated/service_role.
public struct RealtimeTokenVerifier: Sendable {
    private let keys: JWTKeyCollection

    /// Prepares the key; the secret is used as its UTF-8 bytes, like Supabase's JWT secret.
    public init(secret: String) async throws(RealtimeSecretError) {
        keys = try await JWTKeyCollection.hs256(secret: secret)
    }

    /// Verifies `token` at `now`.
    public func verify(_ token: String, now: Date = Date()) async throws(RealtimeTokenError) -> RealtimeClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerText = Self.base64URLDecoded(parts[0]),
            let payloadText = Self.base64URLDecoded(parts[1]),
            let header = try? RealtimeJSON(parsing: headerText),
            let payload = try? RealtimeJSON(parsing: payloadText),
            case .object(let claims) = payload
        else { throw .malformed }
        guard header["alg"]?.stringValue == "HS256" else { throw .badSignature }
        do {
            _ = try await keys.verify(token, as: SignatureOnly.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed
        }
        guard case .string(let roleName)? = claims["role"], case .number(let expText)? = claims["exp"],
            let exp = Double(expText)
        else { throw .missingClaims }
        let expiresAt = Date(timeIntervalSince1970: exp)
        guard expiresAt > now else { throw .expired(secondsAgo: Int(now.timeIntervalSince(expiresAt))) }
        guard let role = RealtimeRole(rawValue: roleName) else { throw .unknownRole(roleName) }
        return RealtimeClaims(role: role, subject: claims["sub"]?.stringValue, expiresAt: expiresAt, claimsJSON: payloadText)
    }

    /// Decodes one base64url part (padding optional) as UTF-8 text.
    static func base64URLDecoded(_ part: Substring) -> String? {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// The signature is JWTKit's to check; the claims are read from the JSON above.
    private struct SignatureOnly: JWTPayload {
        func verify(using algorithm: some JWTAlgorithm) async throws {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {}
    }
}

/// Mints HS256 tokens like Supabase's auth server does (`compass token`, tests, benchmarks).
///
/// ```swift
/// let token = try await RealtimeTokenIssuer(secret: secret).token(role: .authenticated, subject: userID, lifetime: 3600)
/// ```
public struct RealtimeTokenIssuer: Sendable {
    private let keys: JWTKeyCollection

    /// Prepares the signing key.
    public init(secret: String) async throws(RealtimeSecretError) {
        keys = try await JWTKeyCollection.hs256(secret: secret)
    }

    /// A token for `role` (and `subject`, the user id) valid for `lifetime` seconds from `now`.
    public func token(
        role: RealtimeRole, subject: String?, lifetime: TimeInterval, now: Date = Date()
    ) async throws -> String {
        let issuedAt = Int(now.timeIntervalSince1970)
        let payload = IssuedClaims(
            aud: role == .authenticated ? "authenticated" : nil, exp: issuedAt + Int(lifetime.rounded()), iat: issuedAt,
            role: role.rawValue, sub: subject)
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

/// The JWT secret is too short for HS256 (fewer than 32 bytes, the hash's size).
public struct RealtimeSecretError: Error, Sendable, CustomStringConvertible {
    /// The secret's length in bytes.
    public var length: Int

    /// The shortest secret accepted, in UTF-8 bytes.
    public static let minimumLength = 32

    static func check(_ secret: String) throws(RealtimeSecretError) {
        guard secret.utf8.count >= minimumLength else { throw RealtimeSecretError(length: secret.utf8.count) }
    }

    public var description: String {
        "COMPASS_JWT_SECRET is \(length) bytes long; HS256 needs at least \(Self.minimumLength)"
    }
}

extension JWTKeyCollection {
    /// The project's one HS256 key, the secret taken as its UTF-8 bytes (as Supabase does).
    static func hs256(secret: String) async throws(RealtimeSecretError) -> JWTKeyCollection {
        try RealtimeSecretError.check(secret)
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return keys
    }
}
