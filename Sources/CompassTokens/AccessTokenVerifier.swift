import Foundation
import JWTKit

/// Verifies HS256 JWTs signed with the project secret (`COMPASS_JWT_SECRET`).
///
/// ```swift
/// let verifier = try await AccessTokenVerifier(secret: secret)
/// let claims = try await verifier.verify(token)   // AccessClaims, or throws an AccessTokenError
/// ```
/// Checks, in order: shape, `alg` = HS256, signature, `role` present (and `exp`, when the
/// ``ExpiryRule`` requires it), `exp`, `nbf` and `iat` numbers, `exp` in the future, `nbf` and
/// `iat` not beyond the clock skew (see ``TokenLifetime``), and last `role` one of
/// anon/authenticated/service_role: an ``AccessTokenError/unknownRole(_:)`` refusal is of a
/// token that passed every other check, so a caller that knows more roles (GoTrue's admin
/// roles) may accept it. No claim value can make it trap: every value is read leniently
/// (``ClaimValue``) and time stays `Double`.
public struct AccessTokenVerifier: Sendable {
    private let keys: JWTKeyCollection
    /// Tokens already verified (their time claims are checked again on every use).
    let cache = VerifiedTokenCache()

    /// Prepares the key; the secret is used as its UTF-8 bytes, like Supabase's JWT secret.
    public init(secret: String) async throws(JWTSecretError) {
        keys = try await JWTKeyCollection.hs256(secret: secret)
    }

    /// Verifies `token` at `now`; `expiry` says whether a token without `exp` is accepted.
    public func verify(_ token: String, now: Date = Date(), expiry: ExpiryRule = .optional) async throws(AccessTokenError)
        -> AccessClaims
    {
        if let cached = cache.entry(for: token) {
            return try Self.reuse(cached, of: token, now: now, expiry: expiry, cache: cache)
        }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerText = HS256Text.decodedText(parts[0]),
            let payloadText = HS256Text.decodedText(parts[1]),
            let header = Self.decoded(Header.self, from: headerText),
            let claims = Self.decoded(ReadClaims.self, from: payloadText)
        else { throw .malformed }
        guard header.alg == .string("HS256") else { throw .badSignature }
        do {
            _ = try await keys.verify(token, as: SignatureOnly.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed
        }
        guard let roleName = claims.role?.string, claims.exp != nil || expiry == .optional else {
            throw .missingClaims(.roleOrExpiryMissing)
        }
        let lifetime = try TokenLifetime(exp: claims.exp, nbf: claims.nbf, iat: claims.iat)
        try lifetime.check(at: now)
        guard let role = APIRole(rawValue: roleName) else { throw .unknownRole(roleName) }
        let verified = AccessClaims(
            role: role, subject: claims.sub?.string, expiresAt: lifetime.expiryDate, claimsJSON: payloadText,
            sessionID: claims.sessionID?.string.flatMap(UUID.init(uuidString:)))
        cache.insert(.init(claims: verified, lifetime: lifetime), for: token, now: now.timeIntervalSince1970)
        return verified
    }

    /// A cached token: the checks that depend on the caller and the clock, in the order `verify` makes them.
    private static func reuse(
        _ entry: VerifiedTokenCache.Entry, of token: String, now: Date, expiry: ExpiryRule, cache: VerifiedTokenCache
    ) throws(AccessTokenError) -> AccessClaims {
        if entry.lifetime.expiresAt == nil, expiry == .required { throw .missingClaims(.roleOrExpiryMissing) }
        do {
            try entry.lifetime.check(at: now)
        } catch {
            if case .expired = error { cache.remove(token) }
            throw error
        }
        return entry.claims
    }

    /// `text` decoded as `T`, or nil when it is not a JSON object of that shape.
    private static func decoded<T: Decodable>(_ type: T.Type, from text: String) -> T? {
        try? JSONDecoder().decode(type, from: Data(text.utf8))
    }

    /// The header field the verifier reads.
    private struct Header: Decodable {
        var alg: ClaimValue?
    }

    /// The claims the verifier reads; the rest stay in the signed JSON for policies.
    private struct ReadClaims: Decodable {
        var role: ClaimValue?
        var sub: ClaimValue?
        var exp: ClaimValue?
        var nbf: ClaimValue?
        var iat: ClaimValue?
        var sessionID: ClaimValue?

        enum CodingKeys: String, CodingKey {
            case role, sub, exp, nbf, iat
            case sessionID = "session_id"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            role = try container.decodeIfPresent(ClaimValue.self, forKey: .role)
            sub = try container.decodeIfPresent(ClaimValue.self, forKey: .sub)
            // `"exp": null` is an unusable expiry, not a token without one.
            exp = container.contains(.exp) ? try container.decode(ClaimValue.self, forKey: .exp) : nil
            nbf = try container.decodeIfPresent(ClaimValue.self, forKey: .nbf)
            iat = try container.decodeIfPresent(ClaimValue.self, forKey: .iat)
            sessionID = try container.decodeIfPresent(ClaimValue.self, forKey: .sessionID)
        }
    }

    /// The signature is JWTKit's to check; the claims are read from the JSON above.
    private struct SignatureOnly: JWTPayload {
        func verify(using algorithm: some JWTAlgorithm) async throws {}
        init(from decoder: any Decoder) throws {}
        func encode(to encoder: any Encoder) throws {}
    }
}
