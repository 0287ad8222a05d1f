import Foundation

/// One row of the timeline's interactions query.
///
/// `SELECT id, type, subject, occurred_at, created_at, school_id FROM interactions WHERE user_id = $1`
public struct TimelineInteractionRow: Sendable, Hashable {
    /// `interactions.id`.
    public var id: UUID
    /// `interactions.type`, the raw code.
    public var type: String
    /// `interactions.subject`.
    public var subject: String?
    /// `interactions.occurred_at`; the item's date when present.
    public var occurredAt: Date?
    /// `interactions.created_at`; the item's date otherwise.
    public var createdAt: Date
    /// `interactions.school_id`.
    public var schoolId: UUID?

    /// Creates a row from the query's columns.
    public init(id: UUID, type: String, subject: String?, occurredAt: Date?, createdAt: Date, schoolId: UUID?) {
        self.id = id
        self.type = type
        self.subject = subject
        self.occurredAt = occurredAt
        self.createdAt = createdAt
        self.schoolId = schoolId
    }
}
