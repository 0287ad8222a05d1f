import Foundation

/// One row of the timeline's events query.
///
/// `SELECT id, type, name, start_date, end_date, school_id FROM events WHERE user_id = $1`
public struct TimelineEventRow: Sendable, Hashable {
    /// `events.id`.
    public var id: UUID
    /// `events.type`, the raw code.
    public var type: String
    /// `events.name`.
    public var name: String
    /// `events.start_date`.
    public var startDate: Date
    /// `events.end_date`; `nil` for a one-off event.
    public var endDate: Date?
    /// `events.school_id`.
    public var schoolId: UUID?

    /// Creates a row from the query's columns.
    public init(id: UUID, type: String, name: String, startDate: Date, endDate: Date?, schoolId: UUID?) {
        self.id = id
        self.type = type
        self.name = name
        self.startDate = startDate
        self.endDate = endDate
        self.schoolId = schoolId
    }
}
