import CompassHTTP
import CompassTokens
import Hummingbird

/// Picks the request's role and claims as PostgREST does behind Supabase's gateway: the
/// bearer token if there is one (else the API key itself), verified with the project secret.
struct RESTAuthenticator: Sendable {
    let verifier: AccessTokenVerifier

    /// The verified claims, or PostgREST's 401 (PGRST301/PGRST303, with `WWW-Authenticate`).
    func claims(for request: Request, key: APIKey) async throws(RESTError) -> AccessClaims {
        guard let token = request.bearerToken, token != key.token else { return key.claims }
        do {
            return try await verifier.verify(token)
        } catch {
            throw Self.error(for: error, token: token)
        }
    }

    /// The 401 PostgREST answers for a token the verifier refused.
    static func error(for error: AccessTokenError, token: String) -> RESTError {
        switch error {
        case .malformed: .invalidJWT(.malformed(parts: token.split(separator: ".", omittingEmptySubsequences: false).count))
        case .badSignature: .invalidJWT(.badSignature)
        case .unknownKey: .invalidJWT(.noSuitableKey)
        case .expired: .invalidJWT(.expired)
        case .missingClaims(.notValidYet): .invalidJWT(.notYetValid)
        case .missingClaims(.issuedInFuture): .invalidJWT(.issuedInFuture)
        case .missingClaims: .invalidJWT(.unreadableClaims)
        case .unknownRole(let role): .unknownRole(role)
        }
    }
}
