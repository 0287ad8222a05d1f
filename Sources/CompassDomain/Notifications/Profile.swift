import Foundation

/// The public part of a profile, joined onto a notification as its actor.
public struct Profile: Sendable, Hashable, Identifiable, Codable {
    /// `profiles.user_id`.
    public var userId: UUID
    /// `profiles.username`.
    public var username: String
    /// `profiles.full_name`.
    public var fullName: String?
    /// `profiles.avatar_url`.
    public var avatarUrl: String?

    /// The profile's identity is its user id.
    public var id: UUID { userId }

    /// Creates a profile.
    public init(userId: UUID, username: String, fullName: String? = nil, avatarUrl: String? = nil) {
        self.userId = userId
        self.username = username
        self.fullName = fullName
        self.avatarUrl = avatarUrl
    }

    private enum CodingKeys: String, CodingKey {
        case userId, username, fullName, avatarUrl
    }

    /// Encodes camelCase keys, a lower-case id and `null` for absent values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeUUID(userId, forKey: .userId)
        try container.encode(username, forKey: .username)
        try container.encode(fullName, forKey: .fullName)
        try container.encode(avatarUrl, forKey: .avatarUrl)
    }
}
