import Foundation

/// The Postgres roles a token may name.
public enum APIRole: String, Sendable, Hashable, CaseIterable {
    case anon
    case authenticated
    case serviceRole = "service_role"
}

/// A verified token's identity: its role, subject, session, expiry and the whole claim set.
///
/// The claim set is what policies read through `request.jwt.claims` (`auth.uid()` is its `sub`).
public struct AccessClaims: Sendable, Hashable {
    /// The role the subscriber's checks run as.
    public var role: APIRole
    /// The `sub` claim, if any (a user id for `authenticated`).
    public var subject: String?
    /// When the token stops being valid (`exp`); nil for a token without `exp`, which the
    /// verifier accepts only under ``ExpiryRule/optional`` (never for realtime).
    public var expiresAt: Date?
    /// The token's payload JSON, as signed.
    public var claimsJSON: String
    /// The auth server's session (`session_id`), or nil when absent or not a UUID.
    ///
    /// Read once by the verifier so callers need not decode ``claimsJSON`` again.
    public var sessionID: UUID?
    /// The database role requests run as: ``role``'s, or another role the token names where
    /// those are accepted (``OtherRoleRule/accepted``, REST only; ``role`` is then `authenticated`).
    public var databaseRole: String

    /// Makes claims (tests and the token command build them directly).
    public init(role: APIRole, subject: String?, expiresAt: Date?, claimsJSON: String, sessionID: UUID? = nil, databaseRole: String? = nil) {
        self.role = role
        self.subject = subject
        self.expiresAt = expiresAt
        self.claimsJSON = claimsJSON
        self.sessionID = sessionID
        self.databaseRole = databaseRole ?? role.rawValue
    }

    /// Whether the token names a role other than anon, authenticated and service_role.
    public var namesOtherRole: Bool { databaseRole != role.rawValue }

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
