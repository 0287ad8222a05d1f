import Foundation

/// One row of the notifications list: a single notification, or every like on one post.
///
/// ```swift
/// let rows = ActivityGrouping.group(activities)
/// rows[0].text              // "bob and 2 others liked your photo."
/// rows[0].activityIds       // what "mark as read" on this row must mark
/// ```
public struct GroupedActivityItem: Sendable, Hashable, Identifiable {
    /// The id of the newest notification in the row.
    public var id: UUID
    /// Like, comment or follow.
    public var activityType: ActivityType
    /// The post the row is about, for likes and comments.
    public var postId: UUID?
    /// The comment, for a comment row.
    public var commentId: UUID?
    /// The row's time: that of its newest notification.
    public var createdAt: Date
    /// The notifications in the row, newest first; never empty.
    public private(set) var activities: [Activity]

    /// Creates a row from notifications of one kind, which it orders newest first.
    ///
    /// - Precondition: `activities` is not empty.
    public init(activities: [Activity]) {
        precondition(!activities.isEmpty, "a grouped activity item needs at least one activity")
        let ordered = activities.sorted { $0.precedes($1) }
        let newest = ordered[0]
        id = newest.id
        activityType = newest.activityType
        postId = newest.postId
        commentId = newest.commentId
        createdAt = newest.createdAt
        self.activities = ordered
    }

    /// Whether every notification in the row is read; one unread one shows the blue dot.
    public var isRead: Bool { activities.allSatisfy(\.isRead) }

    /// Whether the row stands for more than one notification.
    public var isGrouped: Bool { activities.count > 1 }

    /// Every notification id in the row: what marking the row read or deleting it acts on.
    public var activityIds: [UUID] { activities.map(\.id) }

    /// The ids of the row's unread notifications.
    public var unreadActivityIds: [UUID] { activities.filter { !$0.isRead }.map(\.id) }

    /// How much the badge drops when the row is marked read.
    public var unreadCount: Int { unreadActivityIds.count }

    /// The distinct actors' profiles, newest first (actors without a joined profile are left out).
    public var actors: [Profile] {
        var seen = Set<UUID>()
        return activities.compactMap { activity in
            guard seen.insert(activity.actorId).inserted else { return nil }
            return activity.actorProfile
        }
    }

    /// The newest actor's profile.
    public var primaryActor: Profile? { activities[0].actorProfile }

    /// The row as it reads once marked read (an optimistic update).
    public func markingRead() -> GroupedActivityItem {
        var copy = self
        copy.activities = activities.map { activity in
            var read = activity
            read.isRead = true
            return read
        }
        return copy
    }

    /// The compact relative time shown on the row, e.g. `3h`.
    public func relativeTime(now: Date) -> String {
        RelativeTime.compact(createdAt, now: now)
    }

    /// The row's text, e.g. `alice and bob liked your photo.` or `carol commented: Great photo!`.
    ///
    /// Likes name the newest actor, then the second or a count of the others;
    /// a comment shows its body (`...` when it is missing); the actor is the
    /// username, `Someone` without a profile. The body is never shortened.
    public var text: String {
        switch activityType {
        case .like:
            let names = distinctActorNames
            switch names.count {
            case 1: return "\(names[0]) liked your photo."
            case 2: return "\(names[0]) and \(names[1]) liked your photo."
            default: return "\(names[0]) and \(names.count - 1) others liked your photo."
            }
        case .comment:
            let body = activities[0].commentBody.flatMap { $0.isEmpty ? nil : $0 } ?? "..."
            return "\(activities[0].actorName) commented: \(body)"
        case .follow:
            return "\(activities[0].actorName) started following you."
        }
    }

    /// One name per distinct actor, newest first.
    private var distinctActorNames: [String] {
        var seen = Set<UUID>()
        return activities.compactMap { seen.insert($0.actorId).inserted ? $0.actorName : nil }
    }
}

extension GroupedActivityItem: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, activityType, postId, commentId, isRead, isGrouped, createdAt, text, actors, activityIds, activities
    }

    /// Encodes the row with its text, actors and underlying notifications.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeUUID(id, forKey: .id)
        try container.encode(activityType, forKey: .activityType)
        try container.encodeUUID(postId, forKey: .postId)
        try container.encodeUUID(commentId, forKey: .commentId)
        try container.encode(isRead, forKey: .isRead)
        try container.encode(isGrouped, forKey: .isGrouped)
        try container.encodeTimestamp(createdAt, forKey: .createdAt)
        try container.encode(text, forKey: .text)
        try container.encode(actors, forKey: .actors)
        try container.encode(activityIds.map(\.lowercasedString), forKey: .activityIds)
        try container.encode(activities, forKey: .activities)
    }
}
