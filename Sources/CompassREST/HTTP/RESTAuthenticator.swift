import Foundation
import CompassHTTP
import CompassTokens
import Hummingbird

/// Picks the request's role and claims as PostgREST does behind Supabase's gateway: the
/// bearer token if there is one (else the API key itself), verified with the project secret.
struct RESTAuthenticator: Sendable {
    let verifier: AccessTokenVerifier

    /// The verified claims, or PostgREST's 401 (PGRST301/PGRST303, with `WWW-Authenticate`). A
    /// token without `role` is anon, as PostgREST's `db-anon-role`; one naming another role runs
    /// as that role, which the database checks (``OtherRoleRule``); `Bearer` with no token is
    /// refused, as PostgREST refuses it, rather than read as no header.
    func claims(for request: Request, key: APIKey) async throws(RESTError) -> AccessClaims {
        guard let token = Self.bearerToken(request.headers[.authorization]), token != key.token else { return key.claims }
        guard !token.isEmpty else { throw RESTError.invalidJWT(.empty) }
        do {
            return try await verifier.verify(token, missingRole: .anonymous, otherRoles: .accepted)
        } catch {
            throw Self.error(for: error, token: token)
        }
    }

    /// The token of an `Authorization` value as PostgREST reads it (wai's `extractBearerAuth`): the
    /// scheme runs to the first whitespace and is `bearer` in any case; the token is the rest without
    /// the whitespace around it (`Bearer<TAB>t` and `Bearer  t` are `t`, `Bearer` alone is empty).
    /// Nil for no header or another scheme (anon).
    static func bearerToken(_ value: String?) -> String? {
        guard let value else { return nil }
        let bytes = value.utf8
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        let schemeEnd = bytes.firstIndex(where: isSpace) ?? bytes.endIndex
        guard bytes.distance(from: bytes.startIndex, to: schemeEnd) == 6,
            zip(bytes[..<schemeEnd], "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 })
        else { return nil }
        let rest = bytes[schemeEnd...].drop(while: isSpace)
        var end = rest.endIndex
        while end > rest.startIndex, isSpace(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return String(decoding: rest[rest.startIndex..<end], as: UTF8.self)
    }

    /// The 401 PostgREST answers for a token the verifier refused.
    static func error(for error: AccessTokenError, token: String) -> RESTError {
        switch error {
        case .malformed: .invalidJWT(.malformed(parts: token.split(separator: ".", omittingEmptySubsequences: false).count))
        case .badSignature:
            switch Self.algorithm(of: token) {
            case "HS256", "ES256", "RS256": .invalidJWT(.badSignature)
            case let alg: .invalidJWT(.unsupportedAlgorithm(unsecured: alg?.lowercased() == "none"))
            }
        case .unknownKey: .invalidJWT(.noSuitableKey)
        case .expired: .invalidJWT(.expired)
        case .missingClaims(.notValidYet): .invalidJWT(.notYetValid)
        case .missingClaims(.issuedInFuture): .invalidJWT(.issuedInFuture)
        case .missingClaims(.notANumber(let claim)): .invalidJWT(.claimNotANumber(claim))
        case .missingClaims(.audienceNotStrings): .invalidJWT(.audienceNotStrings)
        case .missingClaims(.roleOrExpiryMissing): .invalidJWT(.unreadableClaims)
        case .unknownRole(let role): .unknownRole(role)
        }
    }

    /// The `alg` a token's header names, if it can be read.
    static func algorithm(of token: String) -> String? {
        guard let header = token.split(separator: ".", omittingEmptySubsequences: false).first else { return nil }
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        return object["alg"] as? String
    }
}
