import Foundation

/// One row of the timeline's school_status_history query.
///
/// `SELECT id, school_id, previous_status, new_status, changed_at, notes FROM school_status_history`
/// `WHERE school_id = ANY($1) ORDER BY changed_at DESC`: one query for all the user's schools.
public struct TimelineStatusChangeRow: Sendable, Hashable {
    /// `school_status_history.id`.
    public var id: UUID
    /// `school_status_history.school_id`.
    public var schoolId: UUID?
    /// `school_status_history.previous_status`.
    public var previousStatus: String?
    /// `school_status_history.new_status`.
    public var newStatus: String
    /// `school_status_history.changed_at`.
    public var changedAt: Date
    /// `school_status_history.notes`.
    public var notes: String?

    /// Creates a row from the query's columns.
    public init(
        id: UUID, schoolId: UUID?, previousStatus: String?, newStatus: String, changedAt: Date, notes: String?
    ) {
        self.id = id
        self.schoolId = schoolId
        self.previousStatus = previousStatus
        self.newStatus = newStatus
        self.changedAt = changedAt
        self.notes = notes
    }
}
