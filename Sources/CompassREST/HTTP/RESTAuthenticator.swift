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

    static func error(for error: AccessTokenError, token: String) -> RESTError {
        switch error {
        case .malformed:
            let parts = token.split(separator: ".", omittingEmptySubsequences: false).count
            return invalidToken("PGRST301", parts == 3 ? "JWT couldn't be decoded" : "Expected 3 parts in JWT; got \(parts)")
        case .badSignature:
            return invalidToken("PGRST301", "JWT cryptographic operation failed")
        case .expired:
            return invalidToken("PGRST303", "JWT expired")
        case .missingClaims:
            return invalidToken("PGRST303", "Parsing claims failed")
        case .unknownRole(let role):
            return RESTError(
                status: 401, code: "22023", message: "role \"\(role.prefix(63))\" does not exist", headers: ["WWW-Authenticate": "Bearer"])
        }
    }

    private static func invalidToken(_ code: String, _ message: String) -> RESTError {
        RESTError(
            status: 401, code: code, message: message,
            headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\", error_description=\(JSONText.quoted(message))"])
    }
}
