import Foundation

/// The Postgres roles a token may name.
public enum APIRole: String, Sendable, Hashable, CaseIterable {
    case anon
    case authenticated
    case serviceRole = "service_role"
}

/// A verified token's identity: its role, subject, expiry and the whole claim set.
///
/// The claim set is what policies read through `request.jwt.claims` (`auth.uid()` is its `sub`).
public struct AccessClaims: Sendable, Hashable {
    /// The role the subscriber's checks run as.
    public var role: APIRole
    /// The `sub` claim, if any (a user id for `authenticated`).
    public var subject: String?
    /// When the token stops being valid (`exp`).
    public var expiresAt: Date
    /// The token's payload JSON, as signed.
    public var claimsJSON: String

    /// Makes claims (tests and the token command build them directly).
    public init(role: APIRole, subject: String?, expiresAt: Date, claimsJSON: String) {
        self.role = role
        self.subject = subject
        self.expiresAt = expiresAt
        self.claimsJSON = claimsJSON
    }

    /// Subscribers with equal keys can be authorised together.
    public var authorizationKey: AuthorizationKey {
        AuthorizationKey(role: role, claimsJSON: claimsJSON)
    }

    /// Role plus claims: what a row-visibility check depends on.
    public struct AuthorizationKey: Sendable, Hashable {
        public var role: APIRole
        public var claimsJSON: String

        public init(role: APIRole, claimsJSON: String) {
            self.role = role
            self.claimsJSON = claimsJSON
        }
    }
}

/// Why a token was refused, worded as the protocol's `Code: text` reasons.
public enum AccessTokenError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not three base64url parts of JSON.
    case malformed
    /// Wrong signature or algorithm.
    case badSignature
    /// `exp` lies in the past (by this many seconds).
    case expired(secondsAgo: Int)
    /// `role` or `exp` is missing or of the wrong type.
    case missingClaims
    /// `role` is not anon, authenticated or service_role.
    case unknownRole(String)

    /// The reason clients are shown (join replies, system messages, the upgrade's 401 body).
    public var reason: String {
        switch self {
        case .malformed: return "MalformedJWT: The token provided is not a valid JWT"
        case .badSignature: return "JwtSignatureError: Failed to validate JWT signature"
        case .expired(let seconds): return "InvalidJWTToken: Token has expired \(seconds) seconds ago"
        case .missingClaims: return "InvalidJWTToken: Fields `role` and `exp` are required in JWT"
        case .unknownRole(let role):
            return "InvalidJWTToken: Role '\(role.prefix(40))' is not one of anon, authenticated, service_role"
        }
    }

    public var description: String { reason }
}
