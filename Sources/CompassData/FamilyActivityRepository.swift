import CompassDomain
import Foundation
import Postgres

/// The co-parent activity log (seed 003): keyset pages of the last 30 days, and recording an entry.
///
/// ```swift
/// let log = FamilyActivityRepository(scope: .user(maria, on: connection))
/// let first = try await log.page(familyId: rivera, limit: 20)
/// let next = try await log.page(familyId: rivera, limit: 20, after: first.nextCursor)
/// ```
/// Pages are ordered by `(created_at, id)` descending and continue strictly after the
/// cursor's row, so rows inserted between two requests (which are newer) never shift
/// or repeat the next page. Only parents of the family can read or write it (RLS).
public struct FamilyActivityRepository: Sendable {
    /// The scope the statements run in.
    public let scope: DatabaseScope

    /// A repository acting as `scope`'s user.
    public init(scope: DatabaseScope) {
        self.scope = scope
    }

    /// The first page: the family's last 30 days, newest first, `limit` rows.
    static func firstPageQuery(familyId: UUID, limit: Int) -> PostgresQuery {
        """
        SELECT id, family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, changes, device_id, created_at
          FROM parent_activities
         WHERE family_unit_id = \(familyId) AND created_at >= now() - interval '30 days'
         ORDER BY created_at DESC, id DESC
         LIMIT \(limit)
        """
    }

    /// The page after a cursor: `(created_at, id) < ($2, $3)`.
    static func nextPageQuery(familyId: UUID, cursor: ParentActivityCursor, limit: Int) -> PostgresQuery {
        """
        SELECT id, family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, changes, device_id, created_at
          FROM parent_activities
         WHERE family_unit_id = \(familyId) AND created_at >= now() - interval '30 days'
           AND (created_at, id) < (\(cursor.timestampText)::timestamptz, \(cursor.id))
         ORDER BY created_at DESC, id DESC
         LIMIT \(limit)
        """
    }

    /// The families where the scope user is a parent (RLS helper view).
    static let parentFamiliesQuery: PostgresQuery =
        "SELECT family_unit_id FROM private.my_family_units WHERE role = 'parent' ORDER BY family_unit_id"

    /// One page of at most `limit` activities after `cursor` (nil: the first page).
    ///
    /// With `familyId` nil the user's (first) family as a parent is used. Fetches
    /// `limit + 1` rows: the extra one only says that a next page exists. The
    /// membership check runs in the same transaction and round trip as the page.
    public func page(
        familyId: UUID? = nil, limit: Int = ParentActivityPage.defaultLimit, after cursor: ParentActivityCursor? = nil
    ) async throws -> FamilyActivityPage {
        let userId = try scope.requireUser(for: "the family activity feed")
        precondition(limit >= 1, "a page holds at least one activity")
        let family: UUID
        if let familyId {
            family = familyId
        } else {
            let families = try await scope.query(Self.parentFamiliesQuery).map { try $0.decode(UUID.self, at: 0) }
            guard let first = families.first else { throw DataAccessError.notAParent(userId: userId) }
            family = first
        }
        let pageQuery = cursor.map { Self.nextPageQuery(familyId: family, cursor: $0, limit: limit + 1) }
            ?? Self.firstPageQuery(familyId: family, limit: limit + 1)
        let results = try await scope.run([Self.parentFamiliesQuery, pageQuery])
        let parentOf = try results[0].map { try $0.decode(UUID.self, at: 0) }
        guard parentOf.contains(family) else {
            throw DataAccessError.notParentOfFamily(userId: userId, familyId: family)
        }
        let rows = try results[1].map(Self.activity)
        return FamilyActivityPage(familyId: family, page: ParentActivityPage(fetched: rows, limit: limit))
    }

    /// Records what a parent did (`triggering_user_id` = the scope user); RLS admits parents of that family only.
    @discardableResult
    public func record(
        familyId: UUID, type: ParentActivityType, targetEntity: String, targetEntityId: UUID,
        changes: ParentActivityChanges = ParentActivityChanges(), deviceId: String? = nil
    ) async throws -> ParentActivity {
        let userId = try scope.requireUser(for: "recording a family activity")
        let insert: PostgresQuery = """
            INSERT INTO parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, changes, device_id)
            VALUES (\(familyId), \(userId), \(type.rawValue), \(targetEntity), \(targetEntityId), \(changes.jsonText)::jsonb, \(deviceId))
            RETURNING id, family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, changes, device_id, created_at
            """
        do {
            return try Self.activity(try await scope.query(insert)[0])
        } catch SQLState.insufficientPrivilege {
            throw DataAccessError.notParentOfFamily(userId: userId, familyId: familyId)
        }
    }

    /// `SELECT user_id, coalesce(full_name, username) FROM profiles WHERE user_id = ANY($1)`
    static func parentNamesQuery(userIds: [UUID]) -> PostgresQuery {
        "SELECT user_id, coalesce(full_name, username) FROM profiles WHERE user_id = ANY(\(userIds))"
    }

    /// The display names of the parents who triggered a page's activities (one query; none for an empty page).
    public func parentNames(of page: ParentActivityPage) async throws -> [UUID: String] {
        let parents = Set(page.activities.map(\.triggeringUserId)).sorted { $0.sortsBefore($1) }
        guard !parents.isEmpty else { return [:] }
        var names: [UUID: String] = [:]
        for row in try await scope.query(Self.parentNamesQuery(userIds: parents)) {
            names[try row.decode(UUID.self, at: 0)] = try row.decode(String.self, at: 1)
        }
        return names
    }

    static func activity(_ row: PostgresRow) throws -> ParentActivity {
        let (id, familyId, userId, typeCode, target, targetId, changes, deviceId, createdAt) =
            try row.decode((UUID, UUID, UUID, String, String, UUID, PostgresJSON, String?, Date).self)
        guard let type = ParentActivityType(rawValue: typeCode) else {
            throw DataAccessError.unexpectedValue(table: "parent_activities", column: "activity_type")
        }
        return ParentActivity(
            id: id, familyId: familyId, triggeringUserId: userId, activityType: type, targetEntity: target,
            targetEntityId: targetId, changes: try ParentActivityChanges(jsonText: changes.text), deviceId: deviceId,
            createdAt: createdAt)
    }
}

/// A page of a family's activity log, with the family it belongs to.
public struct FamilyActivityPage: Sendable, Hashable {
    /// The family.
    public var familyId: UUID
    /// The activities and the next cursor.
    public var page: ParentActivityPage
}
