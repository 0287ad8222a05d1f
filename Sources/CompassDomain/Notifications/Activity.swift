import Foundation

/// One social notification (`activities` row) with what the fetch query joins onto it.
///
/// The fetch brings the actor's profile, and — beyond the seed's known issues
/// 4 and 5 — the comment's body and the post's caption, so a row can say
/// what was commented and a client can open the post.
public struct Activity: Sendable, Hashable, Identifiable {
    /// How many days of notifications the apps fetch.
    public static let retentionDays = 30

    /// `activities.id`.
    public var id: UUID
    /// `activities.user_id`: the recipient.
    public var userId: UUID
    /// `activities.actor_id`: who liked, commented or followed.
    public var actorId: UUID
    /// `activities.activity_type`.
    public var activityType: ActivityType
    /// `activities.post_id`, for likes and comments.
    public var postId: UUID?
    /// `activities.comment_id`, for comments.
    public var commentId: UUID?
    /// `activities.is_read`.
    public var isRead: Bool
    /// `activities.created_at`.
    public var createdAt: Date
    /// The actor's profile (joined).
    public var actorProfile: Profile?
    /// The comment's text, for comment notifications (joined from `comments.body`).
    public var commentBody: String?
    /// The post's caption, for like and comment notifications (joined from `posts.caption`).
    public var postCaption: String?

    /// Creates a notification.
    public init(
        id: UUID, userId: UUID, actorId: UUID, activityType: ActivityType, postId: UUID? = nil,
        commentId: UUID? = nil, isRead: Bool = false, createdAt: Date, actorProfile: Profile? = nil,
        commentBody: String? = nil, postCaption: String? = nil
    ) {
        self.id = id
        self.userId = userId
        self.actorId = actorId
        self.activityType = activityType
        self.postId = postId
        self.commentId = commentId
        self.isRead = isRead
        self.createdAt = createdAt
        self.actorProfile = actorProfile
        self.commentBody = commentBody
        self.postCaption = postCaption
    }

    /// The oldest `created_at` the 30-day fetch keeps: `retentionDays` days before `now`.
    public static func windowStart(now: Date, calendar: Calendar = CompassCalendar.utc) -> Date {
        CompassCalendar.date(daysBefore: now, days: retentionDays, in: calendar)
    }

    /// How many of `activities` are unread (the tab badge).
    public static func unreadCount(_ activities: [Activity]) -> Int {
        activities.lazy.filter { !$0.isRead }.count
    }

    /// Whether `self` comes before `other` in the list: newer first, equal times by descending id.
    public func precedes(_ other: Activity) -> Bool {
        createdAt != other.createdAt ? createdAt > other.createdAt : other.id.sortsBefore(id)
    }

    /// The name the texts use for the actor: the username, or `Someone` without a profile.
    public var actorName: String {
        actorProfile?.username ?? "Someone"
    }
}

extension Activity: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, userId, actorId, activityType, postId, commentId, isRead, createdAt, actorProfile
        case commentBody, postCaption
    }

    /// Decodes the camelCase JSON that `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        userId = try container.decode(UUID.self, forKey: .userId)
        actorId = try container.decode(UUID.self, forKey: .actorId)
        activityType = try container.decode(ActivityType.self, forKey: .activityType)
        postId = try container.decodeIfPresent(UUID.self, forKey: .postId)
        commentId = try container.decodeIfPresent(UUID.self, forKey: .commentId)
        isRead = try container.decodeIfPresent(Bool.self, forKey: .isRead) ?? false
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        actorProfile = try container.decodeIfPresent(Profile.self, forKey: .actorProfile)
        commentBody = try container.decodeIfPresent(String.self, forKey: .commentBody)
        postCaption = try container.decodeIfPresent(String.self, forKey: .postCaption)
    }

    /// Encodes camelCase keys, ISO 8601 timestamps, lower-case ids and explicit nulls.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeUUID(id, forKey: .id)
        try container.encodeUUID(userId, forKey: .userId)
        try container.encodeUUID(actorId, forKey: .actorId)
        try container.encode(activityType, forKey: .activityType)
        try container.encodeUUID(postId, forKey: .postId)
        try container.encodeUUID(commentId, forKey: .commentId)
        try container.encode(isRead, forKey: .isRead)
        try container.encodeTimestamp(createdAt, forKey: .createdAt)
        try container.encode(actorProfile, forKey: .actorProfile)
        try container.encode(commentBody, forKey: .commentBody)
        try container.encode(postCaption, forKey: .postCaption)
    }
}
