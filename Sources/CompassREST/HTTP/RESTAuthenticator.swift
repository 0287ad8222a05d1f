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
        guard let token = request.bearerToken, token != key.token else {
            if request.sendsEmptyBearerToken { throw RESTError.invalidJWT(.empty) }
            return key.claims
        }
        do {
            return try await verifier.verify(token, missingRole: .anonymous, otherRoles: .accepted)
        } catch {
            throw Self.error(for: error, token: token)
        }
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
