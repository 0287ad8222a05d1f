import Foundation

/// One row of the feed's status history query.
///
/// `SELECT id, school_id, new_status, notes, changed_at FROM school_status_history WHERE changed_by = $1 …`
public struct FeedStatusChangeRow: Sendable, Hashable {
    /// `school_status_history.id`.
    public var id: UUID
    /// `school_status_history.school_id`.
    public var schoolId: UUID?
    /// `school_status_history.new_status`, the raw code (`offer_received`, …).
    public var newStatus: String
    /// `school_status_history.notes`.
    public var notes: String?
    /// `school_status_history.changed_at`.
    public var changedAt: Date

    /// Creates a row from the query's columns.
    public init(id: UUID, schoolId: UUID?, newStatus: String, notes: String?, changedAt: Date) {
        self.id = id
        self.schoolId = schoolId
        self.newStatus = newStatus
        self.notes = notes
        self.changedAt = changedAt
    }
}
