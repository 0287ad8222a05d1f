import CompassDomain
import Foundation
import Postgres

/// The Recruiting Timeline (seed 002): events, interactions, offers, status history, school names.
///
/// ```swift
/// let timeline = try await TimelineRepository(scope: scope).load(athleteId: sofia)
/// let layout = TimelineViewState(viewRange: .threeMonths).layout(of: timeline.items, today: .now)
/// ```
/// Two round trips whatever the number of schools: the three item queries and the
/// user's schools, then the status history of all those schools in **one** query
/// (`school_id = ANY($1)`, never one per school).
public struct TimelineRepository: Sendable {
    /// The scope the queries run in.
    public let scope: DatabaseScope

    /// A repository reading as `scope`'s identity.
    public init(scope: DatabaseScope) {
        self.scope = scope
    }

    /// `SELECT id, type, name, start_date, end_date, school_id FROM events WHERE user_id = $1`
    static func eventsQuery(userId: UUID) -> PostgresQuery {
        "SELECT id, type, name, start_date, end_date, school_id FROM events WHERE user_id = \(userId)"
    }

    /// `SELECT id, type, subject, occurred_at, created_at, school_id FROM interactions WHERE user_id = $1`
    static func interactionsQuery(userId: UUID) -> PostgresQuery {
        "SELECT id, type, subject, occurred_at, created_at, school_id FROM interactions WHERE user_id = \(userId)"
    }

    /// `SELECT id, offer_type, offer_date, created_at, school_id FROM offers WHERE athlete_id = $1`
    static func offersQuery(athleteId: UUID) -> PostgresQuery {
        "SELECT id, offer_type, offer_date, created_at, school_id FROM offers WHERE athlete_id = \(athleteId)"
    }

    /// `SELECT id, name FROM schools WHERE user_id = $1 ORDER BY name, id`: the user's schools and their names.
    static func schoolsQuery(userId: UUID) -> PostgresQuery {
        "SELECT id, name FROM schools WHERE user_id = \(userId) ORDER BY name, id"
    }

    /// `SELECT id, school_id, previous_status, new_status, changed_at, notes FROM school_status_history WHERE school_id = ANY($1) ORDER BY changed_at DESC`
    static func statusHistoryQuery(schoolIds: [UUID]) -> PostgresQuery {
        "SELECT id, school_id, previous_status, new_status, changed_at, notes FROM school_status_history WHERE school_id = ANY(\(schoolIds)) ORDER BY changed_at DESC"
    }

    /// Loads an athlete's timeline items (default: the scope's user), newest first.
    public func load(athleteId: UUID? = nil) async throws -> TimelineSnapshot {
        let userId = try athleteId ?? scope.requireUser(for: "the timeline")
        let first = try await scope.run([
            Self.eventsQuery(userId: userId),
            Self.interactionsQuery(userId: userId),
            Self.offersQuery(athleteId: userId),
            Self.schoolsQuery(userId: userId),
        ])
        let events = try first[0].map { row in
            let (id, type, name, start, end, schoolId) = try row.decode((UUID, String, String, Date, Date?, UUID?).self)
            return TimelineEventRow(id: id, type: type, name: name, startDate: start, endDate: end, schoolId: schoolId)
        }
        let interactions = try first[1].map { row in
            let (id, type, subject, occurredAt, createdAt, schoolId) =
                try row.decode((UUID, String, String?, Date?, Date, UUID?).self)
            return TimelineInteractionRow(
                id: id, type: type, subject: subject, occurredAt: occurredAt, createdAt: createdAt, schoolId: schoolId)
        }
        let offers = try first[2].map { row in
            let (id, offerType, offerDate, createdAt, schoolId) = try row.decode((UUID, String, Date?, Date, UUID?).self)
            return TimelineOfferRow(id: id, offerType: offerType, offerDate: offerDate, createdAt: createdAt, schoolId: schoolId)
        }
        var schools: [TimelineSchool] = try first[3].map { row in
            let (id, name) = try row.decode((UUID, String).self)
            return TimelineSchool(id: id, name: name)
        }
        let ownIds = schools.map(\.id)
        let strayIds = Set(TimelineBuilder.schoolIds(events: events, interactions: interactions, offers: offers))
            .subtracting(ownIds).sorted { $0.sortsBefore($1) }
        var statusChanges: [TimelineStatusChangeRow] = []
        var second: [PostgresQuery] = []
        if !ownIds.isEmpty { second.append(Self.statusHistoryQuery(schoolIds: ownIds)) }
        if !strayIds.isEmpty { second.append(FeedRepository.schoolNamesQuery(ids: strayIds)) }
        if !second.isEmpty {
            let results = try await scope.run(second)
            if !ownIds.isEmpty {
                statusChanges = try results[0].map { row in
                    let (id, schoolId, previous, new, changedAt, notes) =
                        try row.decode((UUID, UUID?, String?, String, Date, String?).self)
                    return TimelineStatusChangeRow(
                        id: id, schoolId: schoolId, previousStatus: previous, newStatus: new, changedAt: changedAt,
                        notes: notes)
                }
            }
            if !strayIds.isEmpty, let names = results.last {
                schools += try names.map { row in
                    let (id, name) = try row.decode((UUID, String).self)
                    return TimelineSchool(id: id, name: name)
                }
            }
        }
        let names = Dictionary(schools.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let items = TimelineBuilder.items(
            events: events, interactions: interactions, offers: offers, statusChanges: statusChanges, schoolNames: names)
        return TimelineSnapshot(items: items, schools: schools.sorted { ($0.name, $0.id.uuidString) < ($1.name, $1.id.uuidString) })
    }
}

/// A school of the timeline's school filter.
public struct TimelineSchool: Sendable, Hashable, Encodable {
    /// `schools.id`.
    public var id: UUID
    /// `schools.name`.
    public var name: String

    /// Creates a school entry.
    public init(id: UUID, name: String) {
        self.id = id
        self.name = name
    }

    private enum CodingKeys: String, CodingKey { case id, name }

    /// Encodes a lower-case id and the name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id.lowercasedString, forKey: .id)
        try container.encode(name, forKey: .name)
    }
}

/// Everything the timeline page draws from: its items and the school filter's options.
public struct TimelineSnapshot: Sendable, Hashable {
    /// Every item, newest first.
    public var items: [TimelineItem]
    /// The schools of the filter, by name.
    public var schools: [TimelineSchool]
}
