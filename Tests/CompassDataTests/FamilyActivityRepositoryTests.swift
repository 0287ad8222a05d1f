import CompassData
import CompassDomain
import CompassTestSupport
import Foundation
import Postgres
import Testing

@Suite("Family activity repository (seed 003)")
struct FamilyActivityRepositoryTests {
    @Test func thirtyDayWindowNewestFirst() async throws {
        try await Demo.withDatabase { connection in
            let result = try await FamilyActivityRepository(scope: .user(Demo.maria, on: connection)).page(limit: 50)
            #expect(result.familyId == Demo.riveraFamily)
            // 8 Rivera rows, 3 of them older than 30 days.
            #expect(result.page.activities.count == 5)
            #expect(result.page.nextCursor == nil)
            let dates = result.page.activities.map(\.createdAt)
            #expect(dates == dates.sorted(by: >))
            #expect(result.page.activities.first?.activityType == .appCategorizationRemoved)
            let points = try #require(result.page.activities.first { $0.activityType == .pointsAdjusted })
            #expect(points.changes["points"]?.before == .integer(120))
            #expect(points.changes["points"]?.after == .integer(150))
        }
    }

    @Test func cursorPagesAreStableWhenRowsArriveBetweenPages() async throws {
        try await Demo.withDatabase { connection in
            let repository = FamilyActivityRepository(scope: .user(Demo.maria, on: connection))
            let first = try await repository.page(familyId: Demo.riveraFamily, limit: 2)
            #expect(first.page.activities.count == 2)
            let cursor = try #require(first.page.nextCursor)
            // Two new rows arrive, one of them at exactly the cursor row's time.
            try await repository.record(
                familyId: Demo.riveraFamily, type: .pointsAdjusted, targetEntity: "points", targetEntityId: Demo.sofia)
            let last = try #require(first.page.activities.last)
            try await connection.query(
                """
                INSERT INTO parent_activities (id, family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, created_at)
                VALUES ('ffffffff-ffff-4fff-bfff-ffffffffffff', \(Demo.riveraFamily), \(Demo.daniel), 'settings_updated', 'family_settings', \(Demo.riveraFamily),
                        (SELECT created_at FROM parent_activities WHERE id = \(last.id)))
                """)
            // The cursor survives its text form.
            let decoded = try ParentActivityCursor(encoded: cursor.encoded)
            let second = try await repository.page(familyId: Demo.riveraFamily, limit: 2, after: decoded)
            let third = try await repository.page(familyId: Demo.riveraFamily, limit: 2, after: second.page.nextCursor)
            let seen = (first.page.activities + second.page.activities + third.page.activities).map(\.id)
            #expect(Set(seen).count == seen.count)
            #expect(seen.count == 5)
            #expect(third.page.nextCursor == nil)
            // The new rows are newer (or tie and sort before by id): they are on a fresh first page, not here.
            let fresh = try await repository.page(familyId: Demo.riveraFamily, limit: 50)
            #expect(fresh.page.activities.count == 7)
        }
    }

    @Test func sameMicrosecondTiesAreSplitByIdAcrossPages() async throws {
        try await Demo.withEmptyDatabase { connection in
            let parent = try await Demo.createUser(role: "parent", on: connection)
            let family = try await Demo.createFamily([(parent, "parent")], on: connection)
            try await connection.query(
                """
                INSERT INTO parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, created_at)
                SELECT \(family), \(parent), 'points_adjusted', 'points', \(parent), date_trunc('second', now()) - interval '1 hour'
                  FROM generate_series(1, 7)
                """)
            let repository = FamilyActivityRepository(scope: .user(parent, on: connection))
            var cursor: ParentActivityCursor?
            var ids: [UUID] = []
            repeat {
                let page = try await repository.page(familyId: family, limit: 3, after: cursor)
                ids += page.page.activities.map(\.id)
                cursor = page.page.nextCursor
            } while cursor != nil
            #expect(ids.count == 7)
            #expect(Set(ids).count == 7)
        }
    }

    @Test func onlyParentsOfTheFamilyReadAndRecord() async throws {
        try await Demo.withDatabase { connection in
            await #expect(throws: DataAccessError.notParentOfFamily(userId: Demo.grace, familyId: Demo.riveraFamily)) {
                _ = try await FamilyActivityRepository(scope: .user(Demo.grace, on: connection)).page(familyId: Demo.riveraFamily)
            }
            await #expect(throws: DataAccessError.notAParent(userId: Demo.sofia)) {
                _ = try await FamilyActivityRepository(scope: .user(Demo.sofia, on: connection)).page()
            }
            await #expect(throws: DataAccessError.notParentOfFamily(userId: Demo.sofia, familyId: Demo.riveraFamily)) {
                try await FamilyActivityRepository(scope: .user(Demo.sofia, on: connection)).record(
                    familyId: Demo.riveraFamily, type: .rewardRedeemed, targetEntity: "reward", targetEntityId: UUID())
            }
        }
    }

    @Test func recordingKeepsBeforeAndAfterValues() async throws {
        try await Demo.withDatabase { connection in
            let repository = FamilyActivityRepository(scope: .user(Demo.daniel, on: connection))
            let changes = ParentActivityChanges([ParentActivityChange(field: "daily_limit_minutes", before: 120, after: 90)])
            let recorded = try await repository.record(
                familyId: Demo.riveraFamily, type: .childProfileModified, targetEntity: "Sofia", targetEntityId: Demo.sofia,
                changes: changes, deviceId: "ipad-daniel")
            #expect(recorded.triggeringUserId == Demo.daniel)
            #expect(recorded.changes == changes)
            let page = try await FamilyActivityRepository(scope: .user(Demo.maria, on: connection)).page(limit: 1)
            #expect(page.page.activities.first?.id == recorded.id)
            #expect(page.page.activities.first?.changes["daily_limit_minutes"]?.before == .integer(120))
        }
    }

    @Test func aLargeLogPagesThroughEveryRowInTheWindowOnce() async throws {
        try await Demo.withEmptyDatabase { connection in
            let parent = try await Demo.createUser(role: "parent", on: connection)
            let family = try await Demo.createFamily([(parent, "parent")], on: connection)
            // 600 rows over 40 days, a few per second so times tie: 450 inside the 30-day window.
            try await connection.query(
                """
                INSERT INTO parent_activities (family_unit_id, triggering_user_id, activity_type, target_entity, target_entity_id, created_at)
                SELECT \(family), \(parent), 'settings_updated', 'family_settings', \(family),
                       date_trunc('second', now()) - (g / 3) * interval '1 hour' - interval '30 minutes'
                  FROM generate_series(0, 2879) AS g
                 WHERE g % 24 < 5
                """)
            let inWindow = try await connection.query(
                "SELECT count(*) FROM parent_activities WHERE created_at >= now() - interval '30 days'")[0].decode(Int.self, at: 0)
            let repository = FamilyActivityRepository(scope: .user(parent, on: connection))
            var cursor: ParentActivityCursor?
            var ids: [UUID] = []
            var pages = 0
            repeat {
                let page = try await repository.page(familyId: family, limit: 50, after: cursor)
                ids += page.page.activities.map(\.id)
                cursor = page.page.nextCursor
                pages += 1
            } while cursor != nil
            #expect(ids.count == inWindow)
            #expect(Set(ids).count == ids.count)
            #expect(pages == (inWindow + 49) / 50)
        }
    }
}
