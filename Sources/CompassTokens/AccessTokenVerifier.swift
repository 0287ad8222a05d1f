import Foundation
import JWTKit

/// Verifies JWTs signed with the project secret (`COMPASS_JWT_SECRET`, HS256) or with one of
/// the asymmetric signing keys (`COMPASS_JWT_SIGNING_KEYS`, ES256/RS256, picked by `kid`).
///
/// ```swift
/// let verifier = try await AccessTokenVerifier(secret: secret, signingKeys: keys)
/// let claims = try await verifier.verify(token)   // AccessClaims, or throws an AccessTokenError
/// ```
/// Checks, in order: shape, `alg` (HS256 against the secret; ES256/RS256 against the key its
/// `kid` names, whose algorithm it must be: the secret never checks an asymmetric token nor a
/// public key an HS256 one), signature, `exp`, `nbf` and `iat` numbers, `exp` in the future, `nbf`
/// and `iat` not beyond the clock skew (see ``TokenLifetime``), `role` present (and `exp`, when the
/// ``ExpiryRule`` requires it), and last `role` one of
/// anon/authenticated/service_role: an ``AccessTokenError/unknownRole(_:)`` refusal is of a
/// token that passed every other check, so a caller that knows more roles (GoTrue's admin
/// roles) may accept it. No claim value can make it trap: every value is read leniently
/// (``ClaimValue``) and time stays `Double`.
public struct AccessTokenVerifier: Sendable {
    private let keys: JWTKeyCollection
    /// The asymmetric keys, nil when none is configured (then only HS256 tokens verify).
    private let signingKeys: SigningKeySet?
    /// Tokens already verified (their time claims are checked again on every use).
    let cache = VerifiedTokenCache()

    /// Prepares the keys; the secret is used as its UTF-8 bytes, like Supabase's JWT secret.
    public init(secret: String, signingKeys: SigningKeySet? = nil) async throws(JWTSecretError) {
        keys = try await JWTKeyCollection.hs256(secret: secret)
        self.signingKeys = signingKeys
    }

    /// Verifies `token` at `now`; `expiry` says whether a token without `exp` is accepted,
    /// `missingRole` what a token without `role` is (REST's anon) and `otherRoles` whether one
    /// naming another database role is (REST's custom roles). Neither kind is cached, so another
    /// surface asking about the same token still refuses it.
    public func verify(
        _ token: String, now: Date = Date(), expiry: ExpiryRule = .optional, missingRole: MissingRoleRule = .refused,
        otherRoles: OtherRoleRule = .refused
    ) async throws(AccessTokenError) -> AccessClaims {
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
        let verifying = try key(for: header)
        do {
            _ = try await verifying.verify(token, as: SignatureOnly.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed
        }
        // Time claims first: an expired token says so whatever else it lacks, as PostgREST words it.
        let lifetime = try TokenLifetime(exp: claims.exp, nbf: claims.nbf, iat: claims.iat)
        try lifetime.check(at: now)
        switch claims.aud {
        case nil, .string?, .strings?: break
        case .number?, .other?: throw .missingClaims(.audienceNotStrings)
        }
        guard claims.exp != nil || expiry == .optional else { throw .missingClaims(.roleOrExpiryMissing) }
        if !claims.namesRole, missingRole == .anonymous {
            return .anonymous(
                claimsJSON: payloadText, subject: claims.sub?.string, expiresAt: lifetime.expiryDate,
                sessionID: claims.sessionID?.string.flatMap(UUID.init(uuidString:)))
        }
        guard let roleName = claims.role?.string else { throw .missingClaims(.roleOrExpiryMissing) }
        guard let role = APIRole(rawValue: roleName) else {
            guard otherRoles == .accepted, !OtherRoleRule.unnamedRoles.contains(roleName) else { throw .unknownRole(roleName) }
            return AccessClaims(
                role: .authenticated, subject: claims.sub?.string, expiresAt: lifetime.expiryDate, claimsJSON: payloadText,
                sessionID: claims.sessionID?.string.flatMap(UUID.init(uuidString:)), databaseRole: roleName)
        }
        let verified = AccessClaims(
            role: role, subject: claims.sub?.string, expiresAt: lifetime.expiryDate, claimsJSON: payloadText,
            sessionID: claims.sessionID?.string.flatMap(UUID.init(uuidString:)))
        cache.insert(.init(claims: verified, lifetime: lifetime), for: token, now: now.timeIntervalSince1970)
        return verified
    }

    /// The key that checks a token with `header`: the secret for HS256, the `kid`'s key for
    /// ES256/RS256 when the token names the algorithm that key is for; any other `alg` (`none`) is refused.
    private func key(for header: Header) throws(AccessTokenError) -> JWTKeyCollection {
        guard let alg = header.alg?.string else { throw .badSignature }
        if alg == "HS256" { return keys }
        guard let algorithm = SigningAlgorithm(rawValue: alg) else { throw .badSignature }
        guard let kid = header.kid?.string, let key = signingKeys?.key(kid: kid) else { throw .unknownKey }
        guard key.algorithm == algorithm else { throw .badSignature }
        return key.verifying
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
        var kid: ClaimValue?
    }

    /// The claims the verifier reads; the rest stay in the signed JSON for policies.
    private struct ReadClaims: Decodable {
        var role: ClaimValue?
        /// Whether `role` is there at all: `"role": null` is an unusable role, not a missing one.
        var namesRole: Bool
        var sub: ClaimValue?
        var exp: ClaimValue?
        var nbf: ClaimValue?
        var iat: ClaimValue?
        var aud: ClaimValue?
        var sessionID: ClaimValue?

        enum CodingKeys: String, CodingKey {
            case role, sub, exp, nbf, iat, aud
            case sessionID = "session_id"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            role = try container.decodeIfPresent(ClaimValue.self, forKey: .role)
            namesRole = container.contains(.role)
            sub = try container.decodeIfPresent(ClaimValue.self, forKey: .sub)
            // `"exp": null` is an unusable expiry, not a token without one.
            exp = container.contains(.exp) ? try container.decode(ClaimValue.self, forKey: .exp) : nil
            nbf = try container.decodeIfPresent(ClaimValue.self, forKey: .nbf)
            iat = try container.decodeIfPresent(ClaimValue.self, forKey: .iat)
            aud = try container.decodeIfPresent(ClaimValue.self, forKey: .aud)
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
