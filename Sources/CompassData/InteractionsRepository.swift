import CompassDomain
import Foundation
import Postgres

/// The Interactions list (seed 004): athlete scope (`logged_by`) or parent scope (`family_unit_id`).
///
/// ```swift
/// let fetched = try await InteractionsRepository(scope: scope).load(.family(riveraFamily))
/// let listing = InteractionListing(all: fetched.interactions, filters: filters, names: fetched.names, now: .now)
/// ```
/// School names come from one query by family, coach names from one query with
/// `school_id = ANY($1)`; a deleted school or coach reads `Unknown School` / `Unknown Coach`.
public struct InteractionsRepository: Sendable {
    /// Whose interactions to list.
    public enum Audience: Sendable, Hashable {
        /// The athlete's own: `WHERE logged_by = <scope user>`.
        case athlete
        /// A parent's view of the whole family: `WHERE family_unit_id = $1`; the user must be a parent of it.
        case family(UUID)
    }

    /// The scope the queries run in.
    public let scope: DatabaseScope

    /// A repository reading as `scope`'s user.
    public init(scope: DatabaseScope) {
        self.scope = scope
    }

    /// `SELECT * FROM interactions WHERE logged_by = $1 ORDER BY occurred_at DESC`
    static func athleteQuery(userId: UUID) -> PostgresQuery {
        "SELECT * FROM interactions WHERE logged_by = \(userId) ORDER BY occurred_at DESC"
    }

    /// `SELECT * FROM interactions WHERE family_unit_id = $1 ORDER BY occurred_at DESC`
    static func familyQuery(familyId: UUID) -> PostgresQuery {
        "SELECT * FROM interactions WHERE family_unit_id = \(familyId) ORDER BY occurred_at DESC"
    }

    /// `SELECT id, name FROM schools WHERE family_unit_id = $1`
    static func schoolsQuery(familyId: UUID) -> PostgresQuery {
        "SELECT id, name FROM schools WHERE family_unit_id = \(familyId)"
    }

    /// `SELECT id, first_name, last_name, school_id FROM coaches WHERE school_id = ANY($1)`
    static func coachesQuery(schoolIds: [UUID]) -> PostgresQuery {
        "SELECT id, first_name, last_name, school_id FROM coaches WHERE school_id = ANY(\(schoolIds))"
    }

    /// `SELECT family_unit_id, role FROM private.my_family_units ORDER BY family_unit_id`: the user's families (RLS helper view).
    static let myFamiliesQuery: PostgresQuery =
        "SELECT family_unit_id, role FROM private.my_family_units ORDER BY family_unit_id"

    /// Loads the interactions and the names their cards need.
    ///
    /// Parent: round trip 1 checks membership, fetches the family's interactions and
    /// schools; round trip 2 the coaches. Athlete: round trip 1 the user's families and
    /// interactions, 2 the family's schools, 3 the coaches.
    public func load(_ audience: Audience) async throws -> InteractionRecords {
        let userId = try scope.requireUser(for: "the interactions list")
        let interactions: [Interaction]
        let schools: [UUID: String]
        switch audience {
        case .family(let familyId):
            let results = try await scope.run([
                Self.myFamiliesQuery, Self.familyQuery(familyId: familyId), Self.schoolsQuery(familyId: familyId),
            ])
            let isParent = try results[0].contains { row in
                try row.decode(UUID.self, at: 0) == familyId && row.decode(String.self, at: 1) == "parent"
            }
            guard isParent else { throw DataAccessError.notParentOfFamily(userId: userId, familyId: familyId) }
            interactions = try results[1].map(Self.interaction)
            schools = try Self.names(results[2])
        case .athlete:
            let results = try await scope.run([Self.myFamiliesQuery, Self.athleteQuery(userId: userId)])
            let families = try results[0].map { try $0.decode(UUID.self, at: 0) }
            interactions = try results[1].map(Self.interaction)
            let familyIds = Array(Set(families + interactions.map(\.familyUnitId))).sorted { $0.sortsBefore($1) }
            if familyIds.isEmpty {
                schools = [:]
            } else {
                let lists = try await scope.run(familyIds.map { Self.schoolsQuery(familyId: $0) })
                schools = try lists.reduce(into: [:]) { names, result in names.merge(try Self.names(result)) { a, _ in a } }
            }
        }
        let coachNames = try await coachNames(schoolIds: schools.keys.sorted { $0.sortsBefore($1) })
        return InteractionRecords(
            interactions: interactions, names: InteractionNameLookup(schoolNames: schools, coachNames: coachNames))
    }

    private func coachNames(schoolIds: [UUID]) async throws -> [UUID: String] {
        guard !schoolIds.isEmpty else { return [:] }
        let result = try await scope.query(Self.coachesQuery(schoolIds: schoolIds))
        var names: [UUID: String] = [:]
        for row in result {
            let (id, first, last) = try row.decode((UUID, String?, String?).self)
            names[id] = InteractionNameLookup.coachName(firstName: first, lastName: last)
        }
        return names
    }

    private static func names(_ result: PostgresResult) throws -> [UUID: String] {
        var names: [UUID: String] = [:]
        for row in result {
            let (id, name) = try row.decode((UUID, String).self)
            names[id] = name
        }
        return names
    }

    /// Decodes a `SELECT *` row by column name.
    static func interaction(_ row: PostgresRow) throws -> Interaction {
        let typeCode = try row.decode(String.self, column: "type")
        let directionCode = try row.decode(String.self, column: "direction")
        let sentimentCode = try row.decode(String?.self, column: "sentiment")
        guard let type = InteractionType(rawValue: typeCode) else {
            throw DataAccessError.unexpectedValue(table: "interactions", column: "type")
        }
        guard let direction = InteractionDirection(rawValue: directionCode) else {
            throw DataAccessError.unexpectedValue(table: "interactions", column: "direction")
        }
        return Interaction(
            id: try row.decode(UUID.self, column: "id"),
            familyUnitId: try row.decode(UUID.self, column: "family_unit_id"),
            userId: try row.decode(UUID.self, column: "user_id"),
            loggedBy: try row.decode(UUID.self, column: "logged_by"),
            schoolId: try row.decode(UUID?.self, column: "school_id"),
            coachId: try row.decode(UUID?.self, column: "coach_id"),
            type: type,
            direction: direction,
            subject: try row.decode(String?.self, column: "subject"),
            content: try row.decode(String?.self, column: "content"),
            sentiment: sentimentCode.flatMap(InteractionSentiment.init(rawValue:)),
            occurredAt: try row.decode(Date?.self, column: "occurred_at"),
            attachments: try row.decode([String].self, column: "attachments"),
            createdAt: try row.decode(Date.self, column: "created_at"),
            updatedAt: try row.decode(Date?.self, column: "updated_at"))
    }
}

/// What the interactions page fetches: the rows and the name lookups.
public struct InteractionRecords: Sendable, Hashable {
    /// The interactions, as the query ordered them.
    public var interactions: [Interaction]
    /// School and coach names.
    public var names: InteractionNameLookup

    /// The filtered list with analytics.
    public func listing(filters: InteractionFilters, now: Date = Date()) -> InteractionListing {
        InteractionListing(all: interactions, filters: filters, names: names, now: now)
    }
}
