import Foundation

/// One row of the feed's interactions query.
///
/// `SELECT id, school_id, type, content, subject, occurred_at, created_at FROM interactions WHERE logged_by = $1 …`
public struct FeedInteractionRow: Sendable, Hashable {
    /// `interactions.id`.
    public var id: UUID
    /// `interactions.school_id`; `nil` when the interaction has no school.
    public var schoolId: UUID?
    /// `interactions.type`, the raw code (`email`, `phone_call`, …).
    public var type: String
    /// `interactions.content`.
    public var content: String?
    /// `interactions.subject`.
    public var subject: String?
    /// `interactions.occurred_at`; the event's time when present.
    public var occurredAt: Date?
    /// `interactions.created_at`; the event's time when `occurredAt` is `nil`.
    public var createdAt: Date

    /// Creates a row from the query's columns.
    public init(
        id: UUID, schoolId: UUID?, type: String, content: String?, subject: String?,
        occurredAt: Date?, createdAt: Date
    ) {
        self.id = id
        self.schoolId = schoolId
        self.type = type
        self.content = content
        self.subject = subject
        self.occurredAt = occurredAt
        self.createdAt = createdAt
    }
}
