import CompassDomain
import Foundation

/// `{"notifications": [grouped rows], "unreadCount": N}`: the notifications screen.
public struct NotificationsResponse: Sendable, Encodable {
    /// The grouped rows, newest first.
    public var notifications: [GroupedActivityItem]
    /// The unread badge.
    public var unreadCount: Int

    /// The screen for a loaded inbox.
    public init(inbox: NotificationInbox) {
        notifications = inbox.groups
        unreadCount = inbox.unreadCount
    }
}

/// `{"unreadCount": N}`: the tab badge.
public struct UnreadCountResponse: Sendable, Hashable, Encodable {
    /// Unread notifications.
    public var unreadCount: Int

    /// Creates a response.
    public init(unreadCount: Int) {
        self.unreadCount = unreadCount
    }
}

extension NotificationsRepository {
    /// Marks read the notifications these ids name: a grouped row's id marks every notification in its group.
    ///
    /// One round trip for the list (to expand group ids), one for the change and the new count.
    public func markRead(rowIds: [UUID]) async throws -> NotificationChange {
        let groups = try await load().groups
        let expanded = rowIds.flatMap { id in groups.first { $0.id == id }?.activityIds ?? [id] }
        return try await markRead(Array(Set(expanded)).sorted { $0.sortsBefore($1) })
    }
}
