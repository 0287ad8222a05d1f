import CompassTestSupport
import Foundation
import Testing

@testable import CompassRealtime
@testable import Postgres

@Suite("Pruning stored changes")
struct ChangePrunerTests {
    @Test func removesOnlyChangesOlderThanTheRetention() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            try await connection.query(
                """
                INSERT INTO realtime.changes (schema_name, table_name, type, record, created_at)
                SELECT 'public', 'interactions', 'INSERT', '{}'::jsonb, now() - make_interval(mins => i)
                  FROM generate_series(1, 130) AS i
                """)
            let realtime = RealtimeDatabase(configuration: database.configuration, logger: TestDatabase.logger)
            var pruner = ChangePruner(
                database: realtime, retention: .seconds(3600), interval: .seconds(60), logger: TestDatabase.logger)
            pruner.batchSize = 20  // several batches
            let removed = try await realtime.pool.withRunning { _ in try await pruner.pruneOnce() }
            #expect(removed == 71)  // minutes 60…130 are at or past the hour
            let left = try await connection.query("SELECT count(*)::int8 FROM realtime.changes")[0].decode(Int.self, at: 0)
            #expect(left == 59)
            await connection.close()
        }
    }
}
