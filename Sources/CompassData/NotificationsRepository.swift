import CompassDomain
import Foundation
import Postgres

/// The social Activity System (seed 001): the recipient's notifications and their read state.
///
/// ```swift
/// let notifications = NotificationsRepository(scope: .user(sofia, on: connection))
/// let inbox = try await notifications.load()
/// let rows = ActivityGrouping.group(inbox.activities)
/// let unread = try await notifications.markRead(rows[0].activityIds).unreadCount
/// ```
/// RLS limits every statement to the recipient's rows; the `WHERE user_id` clauses stay
/// as defense in depth. Each change runs with the unread count in the same transaction
/// and round trip, and returns the new count.
public struct NotificationsRepository: Sendable {
    /// The scope the statements run in.
    public let scope: DatabaseScope

    /// A repository acting as `scope`'s user.
    public init(scope: DatabaseScope) {
        self.scope = scope
    }

    /// The 30-day fetch with the actor's profile, the comment's body and the post's caption joined.
    static func listQuery(userId: UUID) -> PostgresQuery {
        """
        SELECT a.id, a.user_id, a.actor_id, a.activity_type, a.post_id, a.comment_id, a.is_read, a.created_at,
               p.username, p.full_name, p.avatar_url, c.body AS comment_body, po.caption AS post_caption
          FROM activities AS a
          JOIN profiles AS p ON p.user_id = a.actor_id
          LEFT JOIN comments AS c ON c.id = a.comment_id
          LEFT JOIN posts AS po ON po.id = a.post_id
         WHERE a.user_id = \(userId) AND a.created_at >= now() - interval '30 days'
         ORDER BY a.created_at DESC
        """
    }

    /// `SELECT count(*) FROM activities WHERE user_id = $1 AND is_read = false`
    static func unreadQuery(userId: UUID) -> PostgresQuery {
        "SELECT count(*) FROM activities WHERE user_id = \(userId) AND is_read = false"
    }

    /// `UPDATE activities SET is_read = true WHERE user_id = $1 AND id = ANY($2) AND is_read = false`
    static func markReadQuery(userId: UUID, ids: [UUID]) -> PostgresQuery {
        "UPDATE activities SET is_read = true WHERE user_id = \(userId) AND id = ANY(\(ids)) AND is_read = false"
    }

    /// `UPDATE activities SET is_read = true WHERE user_id = $1 AND is_read = false`
    static func markAllReadQuery(userId: UUID) -> PostgresQuery {
        "UPDATE activities SET is_read = true WHERE user_id = \(userId) AND is_read = false"
    }

    /// `DELETE FROM activities WHERE id = $1 AND user_id = $2`
    static func deleteQuery(id: UUID, userId: UUID) -> PostgresQuery {
        "DELETE FROM activities WHERE id = \(id) AND user_id = \(userId)"
    }

    /// `DELETE FROM activities WHERE user_id = $1`
    static func clearQuery(userId: UUID) -> PostgresQuery {
        "DELETE FROM activities WHERE user_id = \(userId)"
    }

    /// The last 30 days of notifications, newest first, and the unread count: one round trip.
    public func load() async throws -> NotificationInbox {
        let userId = try scope.requireUser(for: "notifications")
        let results = try await scope.run([Self.listQuery(userId: userId), Self.unreadQuery(userId: userId)])
        let activities = try results[0].map(Self.activity)
        return NotificationInbox(activities: activities, unreadCount: try results[1][0].decode(Int.self, at: 0))
    }

    /// The unread count (the tab badge); unlike the list it is not limited to 30 days, as in seed 001.
    public func unreadCount() async throws -> Int {
        let userId = try scope.requireUser(for: "notifications")
        return try await scope.query(Self.unreadQuery(userId: userId))[0].decode(Int.self, at: 0)
    }

    /// Marks these notifications read: one, a grouped row's `activityIds`, or any list.
    public func markRead(_ ids: [UUID]) async throws -> NotificationChange {
        let userId = try scope.requireUser(for: "notifications")
        guard !ids.isEmpty else { return NotificationChange(changed: 0, unreadCount: try await unreadCount()) }
        return try await change(Self.markReadQuery(userId: userId, ids: ids), userId: userId)
    }

    /// Marks every notification of the user read.
    public func markAllRead() async throws -> NotificationChange {
        let userId = try scope.requireUser(for: "notifications")
        return try await change(Self.markAllReadQuery(userId: userId), userId: userId)
    }

    /// Deletes one notification; throws `notFound` when the user has no such notification.
    public func delete(_ id: UUID) async throws -> NotificationChange {
        let userId = try scope.requireUser(for: "notifications")
        let outcome = try await change(Self.deleteQuery(id: id, userId: userId), userId: userId)
        guard outcome.changed > 0 else { throw DataAccessError.notFound(entity: "notification", id: id) }
        return outcome
    }

    /// Deletes every notification of the user.
    public func clear() async throws -> NotificationChange {
        let userId = try scope.requireUser(for: "notifications")
        return try await change(Self.clearQuery(userId: userId), userId: userId)
    }

    /// Runs one change and the unread count in one transaction and round trip.
    private func change(_ statement: PostgresQuery, userId: UUID) async throws -> NotificationChange {
        let results = try await scope.run([statement, Self.unreadQuery(userId: userId)])
        return NotificationChange(
            changed: results[0].affectedRows ?? 0, unreadCount: try results[1][0].decode(Int.self, at: 0))
    }

    static func activity(_ row: PostgresRow) throws -> Activity {
        let (id, userId, actorId, typeCode, postId, commentId, isRead, createdAt) =
            try row.decode((UUID, UUID, UUID, String, UUID?, UUID?, Bool, Date).self)
        guard let type = ActivityType(rawValue: typeCode) else {
            throw DataAccessError.unexpectedValue(table: "activities", column: "activity_type")
        }
        let profile = Profile(
            userId: actorId, username: try row.decode(String.self, column: "username"),
            fullName: try row.decode(String?.self, column: "full_name"),
            avatarUrl: try row.decode(String?.self, column: "avatar_url"))
        return Activity(
            id: id, userId: userId, actorId: actorId, activityType: type, postId: postId, commentId: commentId,
            isRead: isRead, createdAt: createdAt, actorProfile: profile,
            commentBody: try row.decode(String?.self, column: "comment_body"),
            postCaption: try row.decode(String?.self, column: "post_caption"))
    }
}

/// The notifications screen's data: the 30-day list and the unread badge.
public struct NotificationInbox: Sendable, Hashable {
    /// Notifications of the last 30 days, newest first.
    public var activities: [Activity]
    /// Unread notifications of any age.
    public var unreadCount: Int

    /// The list rows (likes on one post grouped).
    public var groups: [GroupedActivityItem] { ActivityGrouping.group(activities) }
}

/// The outcome of a read/delete: how many rows changed, and the new unread count.
public struct NotificationChange: Sendable, Hashable, Codable {
    /// Rows updated or deleted.
    public var changed: Int
    /// The unread count after the change.
    public var unreadCount: Int

    /// Creates an outcome.
    public init(changed: Int, unreadCount: Int) {
        self.changed = changed
        self.unreadCount = unreadCount
    }
}
