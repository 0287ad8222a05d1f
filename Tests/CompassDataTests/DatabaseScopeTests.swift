import CompassData
import CompassTestSupport
import Foundation
import Postgres
import Testing

@Suite("User scope: PostgREST-style role and claims, RLS as the boundary")
struct DatabaseScopeTests {
    @Test func userScopeSetsRoleAndClaimsForItsTransactionOnly() async throws {
        try await Demo.withDatabase { connection in
            let scope = DatabaseScope.user(Demo.sofia, on: connection)
            let row = try await scope.query("SELECT auth.uid(), current_user::text, auth.role()")[0]
            #expect(try row.decode(UUID?.self, at: 0) == Demo.sofia)
            #expect(try row.decode(String.self, at: 1) == "authenticated")
            #expect(try row.decode(String?.self, at: 2) == "authenticated")
            // The settings were local to the scope's transaction: nothing leaks to the next statement.
            let after = try await connection.query("SELECT auth.uid(), current_user::text")[0]
            #expect(try after.decode(UUID?.self, at: 0) == nil)
            #expect(try after.decode(String.self, at: 1) != "authenticated")
        }
    }

    @Test func scopeStatementsShareTheQueriesRoundTrip() async throws {
        try await Demo.withDatabase { connection in
            let scope = DatabaseScope.user(Demo.sofia, on: connection)
            let before = await connection.roundTrips
            let results = try await scope.run(["SELECT 1", "SELECT auth.uid()", "SELECT 3"])
            #expect(await connection.roundTrips == before + 1)
            #expect(results.count == 3)
            #expect(try results[1][0].decode(UUID?.self, at: 0) == Demo.sofia)
        }
    }

    @Test func rlsAloneKeepsUserAFromUserBsRows() async throws {
        try await Demo.withDatabase { connection in
            // No WHERE clause at all: whatever comes back is what RLS lets the user read.
            func visible(_ table: String, as user: UUID, column: String) async throws -> Set<UUID> {
                let rows = try await DatabaseScope.user(user, on: connection)
                    .query(PostgresQuery(unsafeSQL: "SELECT \(column) FROM \(table)"))
                return Set(try rows.map { try $0.decode(UUID.self, at: 0) })
            }
            // Sofia (Rivera athlete) sees only her own interactions, never the Chens'.
            let seen1 = try await visible("interactions", as: Demo.sofia, column: "logged_by")
            #expect(seen1 == [Demo.sofia])
            let seen2 = try await visible("interactions", as: Demo.marcus, column: "logged_by")
            #expect(seen2 == [Demo.marcus])
            // A parent sees the whole family, and only that family.
            let seen3 = try await visible("interactions", as: Demo.grace, column: "logged_by")
            #expect(seen3 == [Demo.marcus, Demo.lily])
            let seen4 = try await visible("interactions", as: Demo.maria, column: "family_unit_id")
            #expect(seen4 == [Demo.riveraFamily])
            // Notifications: only the recipient's.
            let seen5 = try await visible("activities", as: Demo.sofia, column: "user_id")
            #expect(seen5 == [Demo.sofia])
            // Parent activity: parents of the family only; an athlete sees none.
            let seen6 = try await visible("parent_activities", as: Demo.maria, column: "family_unit_id")
            #expect(seen6 == [Demo.riveraFamily])
            let seen7 = try await visible("parent_activities", as: Demo.sofia, column: "family_unit_id")
            #expect(seen7.isEmpty)
            // Someone outside every family sees no recruiting rows at all.
            let seen8 = try await visible("interactions", as: Demo.jordan, column: "id")
            #expect(seen8.isEmpty)
            let seen9 = try await visible("documents", as: Demo.jordan, column: "id")
            #expect(seen9.isEmpty)
        }
    }

    @Test func serviceRoleBypassesRLS() async throws {
        try await Demo.withDatabase { connection in
            let all = try await DatabaseScope.serviceRole(on: connection).query("SELECT count(*) FROM interactions")
            #expect(try all[0].decode(Int.self, at: 0) == 43)
            let role = try await DatabaseScope.serviceRole(on: connection).query("SELECT current_user::text, auth.uid()")
            #expect(try role[0].decode(String.self, at: 0) == "service_role")
            #expect(try role[0].decode(UUID?.self, at: 1) == nil)
        }
    }

    @Test func aFailedStatementRollsBackItsWholeScopeTransaction() async throws {
        try await Demo.withDatabase { connection in
            let scope = DatabaseScope.serviceRole(on: connection)
            await #expect(throws: PostgresError.self) {
                try await scope.run([
                    "UPDATE activities SET is_read = true WHERE user_id = \(Demo.sofia)",
                    "SELECT 1 / 0",
                ])
            }
            let unread = try await scope.query(
                "SELECT count(*) FROM activities WHERE user_id = \(Demo.sofia) AND is_read = false")
            #expect(try unread[0].decode(Int.self, at: 0) > 0)
        }
    }

    @Test func repositoriesNeedAUserScope() async throws {
        try await Demo.withDatabase { connection in
            let scope = DatabaseScope.serviceRole(on: connection)
            await #expect(throws: DataAccessError.userScopeRequired(operation: "the activity feed")) {
                _ = try await FeedRepository(scope: scope).load()
            }
        }
    }

    @Test func twoUsersSharingOneConnectionEachSeeOnlyTheirRowsThroughThePreparedPlans() async throws {
        try await Demo.withDatabase { connection in
            // Generic plans from the first run: a plan that baked one user's claims in would show here.
            try await connection.query("SET plan_cache_mode = force_generic_plan")
            func expected(_ user: UUID) async throws -> Set<String> {
                let rows = try await connection.query(
                    """
                    SELECT 'interaction-' || id FROM interactions WHERE logged_by = \(user)
                    UNION ALL SELECT 'status-' || id FROM school_status_history WHERE changed_by = \(user)
                    UNION ALL SELECT 'doc-' || id FROM documents WHERE user_id = \(user)
                    """)
                return Set(try rows.map { try $0.decode(String.self, at: 0) })
            }
            let sofiasRows = try await expected(Demo.sofia)
            let marcusRows = try await expected(Demo.marcus)
            #expect(!sofiasRows.isEmpty && !marcusRows.isEmpty && sofiasRows.isDisjoint(with: marcusRows))
            for _ in 0..<4 {
                for (user, rows) in [(Demo.sofia, sofiasRows), (Demo.marcus, marcusRows)] {
                    let feed = try await FeedRepository(scope: .user(user, on: connection)).load()
                    #expect(Set(feed.events.map(\.id)) == rows)
                    // Unfiltered: what comes back is only what RLS lets this user read.
                    let all = try await DatabaseScope.user(user, on: connection).query("SELECT logged_by FROM interactions")
                    #expect(Set(try all.map { try $0.decode(UUID.self, at: 0) }) == [user])
                }
            }
            // It really ran by name: the scope statement and the feed's queries are prepared, once each.
            let prepared = try await connection.query(
                "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'compass_statement_%'")
            let statements = try prepared.map { try $0.decode(String.self, at: 0) }
            #expect(statements.count == Set(statements).count)
            #expect(statements.contains(DatabaseScope.user(Demo.sofia, on: connection).scopeStatement.sql))
            #expect(statements.contains { $0.hasPrefix("SELECT id, school_id, type, content") })
        }
    }
}
