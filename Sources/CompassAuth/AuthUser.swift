import CompassDomain
import Foundation

/// A user as GoTrue returns it (`GET /user`, sign-up, the `user` of a session).
///
/// Postgres builds it (``AuthStore/userJSON``) so timestamps come out as ISO 8601 UTC.
public struct AuthUser: Codable, Sendable, Hashable {
    /// Lowercase, as GoTrue writes it (Foundation would upper-case a UUID).
    public var id: String
    public var aud: String
    public var role: String
    public var email: String?
    public var emailConfirmedAt: String?
    public var phone: String
    public var confirmedAt: String?
    public var lastSignInAt: String?
    /// When the last confirmation, recovery or invitation mail went out (absent before any).
    public var confirmationSentAt: String?
    public var recoverySentAt: String?
    public var invitedAt: String?
    /// An address waiting for confirmation (`PUT /user {email}`), and when its mails went out.
    public var newEmail: String?
    public var emailChangeSentAt: String?
    public var appMetadata: JSONValue
    public var userMetadata: JSONValue
    public var identities: [JSONValue]
    public var createdAt: String
    public var updatedAt: String
    public var isAnonymous: Bool
    /// MFA factors, verified or not (absent when there are none, as GoTrue omits them).
    public var factors: [JSONValue]?
    /// When the account was soft-deleted (absent otherwise, as GoTrue omits it).
    public var deletedAt: String?
    /// Until when an admin banned the account (absent when never banned).
    public var bannedUntil: String?

    enum CodingKeys: String, CodingKey {
        case id, aud, role, email, phone, identities, factors
        case emailConfirmedAt = "email_confirmed_at"
        case confirmedAt = "confirmed_at"
        case lastSignInAt = "last_sign_in_at"
        case confirmationSentAt = "confirmation_sent_at"
        case recoverySentAt = "recovery_sent_at"
        case invitedAt = "invited_at"
        case newEmail = "new_email"
        case emailChangeSentAt = "email_change_sent_at"
        case appMetadata = "app_metadata"
        case userMetadata = "user_metadata"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case isAnonymous = "is_anonymous"
        case deletedAt = "deleted_at"
        case bannedUntil = "banned_until"
    }
}

/// A signed-in session as GoTrue returns it from `/token` and `/signup`.
public struct AuthSession: Codable, Sendable, Hashable {
    public var accessToken: String
    public var tokenType = "bearer"
    public var expiresIn: Int
    public var expiresAt: Int
    public var refreshToken: String
    public var user: AuthUser

    enum CodingKeys: String, CodingKey {
        case user
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case expiresAt = "expires_at"
        case refreshToken = "refresh_token"
    }
}
