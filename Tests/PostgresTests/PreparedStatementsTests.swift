import CompassTestSupport
import Foundation
import Testing

@testable import Postgres

@Suite("Prepared statements against a real server: cached per connection, recovered when stale")
struct PreparedStatementsTests {
    /// The statements the cache prepared on this session, by SQL text.
    func serverStatements(_ connection: PostgresConnection) async throws -> [String: String] {
        let rows = try await connection.query(
            "SELECT statement, name FROM pg_prepared_statements WHERE name LIKE 'compass_statement_%'")
        return Dictionary(uniqueKeysWithValues: try rows.map { try $0.decode((String, String).self) })
    }

    func connect(_ database: TestDatabase, capacity: Int = 256) async throws -> PostgresConnection {
        var configuration = database.configuration
        configuration.preparedStatementCacheSize = capacity
        return try await PostgresConnection.connect(to: configuration, logger: TestDatabase.logger)
    }

    @Test func aStatementIsPreparedOnceAndThenRunByNameInTheSameRoundTrips() async throws {
        try await TestDatabase.with { database in
            let connection = try await connect(database)
            func query(_ value: Int) -> PostgresQuery { "SELECT \(value)::int + \(1)" }
            let before = await connection.roundTrips
            for value in 1...3 {
                let sum = try await connection.query(query(value).prepared)
                #expect(try sum[0].decode(Int.self, at: 0) == value + 1)
            }
            #expect(await connection.roundTrips == before + 3)
            let prepared = try await serverStatements(connection)
            #expect(prepared.keys.contains(query(0).sql))
            #expect(prepared.count == 1)
            #expect(await connection.preparedStatementCount == 1)
            // Without `.prepared` nothing is added.
            _ = try await connection.query("SELECT \(5)::int")
            #expect(try await serverStatements(connection).count == 1)
            await connection.close()
        }
    }

    @Test func aStalePlanIsPreparedAgainAndTheStatementStillAnswers() async throws {
        try await TestDatabase.with { database in
            let connection = try await connect(database)
            try await connection.query("CREATE TABLE stale_probe (a int)")
            try await connection.query("INSERT INTO stale_probe VALUES (1)")
            let select = PostgresQuery(unsafeSQL: "SELECT * FROM stale_probe").prepared
            #expect(try await connection.query(select).columns.count == 1)
            // The result type changes under the cached plan: Postgres answers 0A000 to the old one.
            try await connection.query("ALTER TABLE stale_probe ADD COLUMN b text DEFAULT 'new'")
            let after = try await connection.query(select)
            #expect(after.columns.map(\.name) == ["a", "b"])
            #expect(try after[0].decode(String.self, at: 1) == "new")
            // Inside the caller's transaction it cannot be retried: the error surfaces, the cache heals.
            try await connection.query("ALTER TABLE stale_probe ADD COLUMN c int")
            let error = await #expect(throws: PostgresError.self) {
                try await connection.withTransaction { try await $0.query(select) }
            }
            #expect(error?.isStalePreparedStatement == true, "the caller may roll back and run it again")
            #expect(try await connection.query(select).columns.count == 3)
            // The stale statement was dropped on the server too, not left behind.
            #expect(try await serverStatements(connection).count == 1)
            await connection.close()
        }
    }

    @Test func statementsDroppedBehindTheCachesBackArePreparedAgain() async throws {
        try await TestDatabase.with { database in
            let connection = try await connect(database)
            let query = PostgresQuery(unsafeSQL: "SELECT $1::text", binds: ["x"]).prepared
            _ = try await connection.query(query)
            try await connection.executeScript(unsafeSQL: "DISCARD ALL")
            #expect(try await connection.query(query)[0].decode(String.self, at: 0) == "x")
            // Pipelines recover the same way, each segment on its own.
            let results = try await connection.pipeline(segments: [[query], [query]])
            try await connection.executeScript(unsafeSQL: "DEALLOCATE ALL")
            let again = try await connection.pipeline(segments: [[query], ["SELECT 2"], [query]])
            for segment in results + again { for result in segment { _ = try result.get() } }
            await connection.close()
        }
    }

    @Test func theLeastRecentlyUsedStatementIsDeallocatedBeyondCapacity() async throws {
        try await TestDatabase.with { database in
            let connection = try await connect(database, capacity: 2)
            let statements = (1...3).map { PostgresQuery(unsafeSQL: "SELECT \($0)").prepared }
            _ = try await connection.query(statements[0])
            _ = try await connection.query(statements[1])
            _ = try await connection.query(statements[0])  // statement 1 is now the least recently used
            _ = try await connection.query(statements[2])
            let prepared = try await serverStatements(connection)
            #expect(Set(prepared.keys) == [statements[0].sql, statements[2].sql])
            // An evicted statement still runs: it is simply prepared again.
            #expect(try await connection.query(statements[1])[0].decode(Int.self, at: 0) == 2)
            #expect(try await serverStatements(connection).count == 2)
            await connection.close()
        }
    }

    @Test func aStatementThatCannotBePreparedFailsAloneWithItsOwnError() async throws {
        try await TestDatabase.with { database in
            let connection = try await connect(database)
            let broken = PostgresQuery(unsafeSQL: "SELEC 1").prepared
            let good = PostgresQuery(unsafeSQL: "SELECT 1").prepared
            let results = try await connection.pipeline(segments: [[good, broken, good], [broken], [good]])
            #expect(try results[0][0].get()[0].decode(Int.self, at: 0) == 1)
            guard case .failure(let error) = results[0][1], case .failure(let skipped) = results[0][2],
                case .failure(let again) = results[1][0]
            else {
                Issue.record("the broken statement must fail, and what follows it in its segment")
                return
            }
            #expect(error.sqlState == .syntaxError)
            #expect(error.statementIndex == 1)
            #expect(skipped.code == .pipelineAborted)
            #expect(skipped.failedStatementIndex == 1)
            #expect(again.sqlState == .syntaxError)
            _ = try results[2][0].get()
            // Nothing is cached under the broken text; the good one is.
            #expect(try await serverStatements(connection).keys.sorted() == [good.sql])
            await #expect(throws: PostgresError.self) { try await connection.query(broken) }
            await connection.close()
        }
    }

    @Test func aStatementThatFailsWhenRunStaysPreparedOnceNotOncePerFailure() async throws {
        try await TestDatabase.with { database in
            let connection = try await connect(database)
            func divide(by divisor: Int) -> PostgresQuery { PostgresQuery("SELECT 10 / \(divisor)::int").prepared }
            for _ in 0..<3 {
                await #expect(throws: PostgresError.self) { try await connection.query(divide(by: 0)) }
            }
            #expect(try await connection.query(divide(by: 2))[0].decode(Int.self, at: 0) == 5)
            #expect(try await serverStatements(connection).count == 1)
            #expect(await connection.preparedStatementCount == 1)
            await connection.close()
        }
    }

    @Test func capacityZeroPreparesNothing() async throws {
        try await TestDatabase.with { database in
            let connection = try await connect(database, capacity: 0)
            _ = try await connection.query(PostgresQuery(unsafeSQL: "SELECT 1").prepared)
            #expect(try await serverStatements(connection).isEmpty)
            await connection.close()
        }
    }
}
