/// Why a token was refused, worded as the protocol's `Code: text` reasons.
public enum AccessTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not three base64url parts of JSON objects.
    case malformed
    /// Wrong signature or algorithm.
    case badSignature
    /// An ES256/RS256 token whose `kid` is missing or names none of the configured signing keys
    /// (a key retired from `COMPASS_JWT_SIGNING_KEYS`, or another project's).
    case unknownKey
    /// `exp` lies in the past (by this many seconds, clamped to `Int`'s range).
    case expired(secondsAgo: Int)
    /// A claim is missing or unusable, or the token's dates lie in the future.
    ///
    /// One case with a payload rather than a case per problem, so code that switches over
    /// these errors (REST's 401 mapping answers PGRST303 for all of them) keeps compiling.
    case missingClaims(ClaimProblem)
    /// `role` is not anon, authenticated or service_role.
    case unknownRole(String)

    /// What is wrong with the claims of a ``missingClaims(_:)`` refusal.
    public enum ClaimProblem: Sendable, Hashable {
        /// `role` or `exp` is missing (or `role` is not a string).
        case roleOrExpiryMissing
        /// This time claim (`exp`, `nbf`, `iat`) is present but not a finite JSON number.
        case notANumber(claim: String)
        /// `nbf` lies further in the future than the allowed clock skew.
        case notValidYet
        /// `iat` lies further in the future than the allowed clock skew.
        case issuedInFuture
        /// `aud` is present but neither a string nor an array of strings.
        case audienceNotStrings
    }

    /// The reason clients are shown (join replies, system messages, the upgrade's 401 body).
    public var reason: String {
        switch self {
        case .malformed: return "MalformedJWT: The token provided is not a valid JWT"
        case .badSignature: return "JwtSignatureError: Failed to validate JWT signature"
        case .unknownKey: return "JwtSignatureError: No signing key matches the token's kid"
        case .expired(let seconds): return "InvalidJWTToken: Token has expired \(seconds) seconds ago"
        case .missingClaims(.roleOrExpiryMissing): return "InvalidJWTToken: Fields `role` and `exp` are required in JWT"
        case .missingClaims(.notANumber(let claim)): return "InvalidJWTToken: Claim '\(claim)' is not a number"
        case .missingClaims(.notValidYet): return "InvalidJWTToken: Token is not valid yet"
        case .missingClaims(.issuedInFuture): return "InvalidJWTToken: Token was issued in the future"
        case .missingClaims(.audienceNotStrings): return "InvalidJWTToken: Claim 'aud' is not a string or an array of strings"
        case .unknownRole(let role):
            return "InvalidJWTToken: Role '\(role.prefix(40))' is not one of anon, authenticated, service_role"
        }
    }

    /// The reason for HTTP APIs in GoTrue's words (`invalid JWT: token is expired`): Realtime's
    /// `Code: text` form names a library type, which means nothing to an HTTP client.
    public var plainReason: String {
        switch self {
        case .malformed: return "invalid JWT: the token is not three base64url-encoded JSON parts"
        case .badSignature: return "invalid JWT: signature is invalid"
        case .unknownKey: return "invalid JWT: no signing key matches the token's kid"
        case .expired: return "invalid JWT: token is expired"
        case .missingClaims(.roleOrExpiryMissing): return "invalid JWT: the role and exp claims are required"
        case .missingClaims(.notANumber(let claim)): return "invalid JWT: claim \(claim) is not a number"
        case .missingClaims(.notValidYet): return "invalid JWT: token is not valid yet"
        case .missingClaims(.issuedInFuture): return "invalid JWT: token used before issued"
        case .missingClaims(.audienceNotStrings): return "invalid JWT: claim aud is not a string or an array of strings"
        case .unknownRole(let role): return "invalid JWT: role '\(role.prefix(40))' is not one of anon, authenticated, service_role"
        }
    }

    /// The reason: it names claims, never their values, so it is safe to log and to send.
    public var description: String { reason }
}
