import Foundation

/// One row of the timeline's offers query.
///
/// `SELECT id, offer_type, offer_date, created_at, school_id FROM offers WHERE athlete_id = $1`
public struct TimelineOfferRow: Sendable, Hashable {
    /// `offers.id`.
    public var id: UUID
    /// `offers.offer_type`, the raw code.
    public var offerType: String
    /// `offers.offer_date`; the item's date when present.
    public var offerDate: Date?
    /// `offers.created_at`; the item's date otherwise.
    public var createdAt: Date
    /// `offers.school_id`.
    public var schoolId: UUID?

    /// Creates a row from the query's columns.
    public init(id: UUID, offerType: String, offerDate: Date?, createdAt: Date, schoolId: UUID?) {
        self.id = id
        self.offerType = offerType
        self.offerDate = offerDate
        self.createdAt = createdAt
        self.schoolId = schoolId
    }
}
