import CompassTestSupport
import Testing

@testable import Postgres

@Suite("Errors caught by code, transactions that keep every cause")
struct PostgresTransactionErrorTests {
    @Test func catchMatchesSQLStateAndCode() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            var caught = false
            do {
                try await connection.query("SELECT compass_no_such_function()")
            } catch SQLState.uniqueViolation {
                Issue.record("matched the wrong SQLSTATE")
            } catch SQLState.undefinedFunction {
                caught = true
            }
            #expect(caught)
            #expect(!(SQLState.undefinedFunction ~= CancellationError()))
            #expect(PostgresError.Code.server ~= PostgresError(code: .server, message: "x"))
            await connection.close()
        }
    }

    @Test func failedCommitKeepsItsOwnErrorAndStillMatchesByCode() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            try await connection.query("CREATE TEMP TABLE tags (name text UNIQUE DEFERRABLE INITIALLY DEFERRED)")
            let error = await #expect(throws: PostgresTransactionError.self) {
                try await connection.withTransaction { tx in
                    try await tx.query("INSERT INTO tags VALUES ('a'), ('a')")  // checked only at COMMIT
                }
            }
            #expect(error?.bodyError == nil)
            #expect(error?.rollbackError == nil)
            #expect((error?.commitError as? PostgresError)?.sqlState == .uniqueViolation)
            #expect(error.map { SQLState.uniqueViolation ~= $0 } == true)
            #expect(try await connection.query("SELECT count(*)::int4 FROM tags")[0].decode(Int.self, at: 0) == 0)
            await connection.close()
        }
    }

    @Test func failedRollbackKeepsTheBodysErrorBesideIt() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let error = await #expect(throws: PostgresTransactionError.self) {
                try await connection.withTransaction { tx in
                    // The session ends under the body: its query fails, and so does ROLLBACK.
                    try await tx.query("SELECT pg_terminate_backend(pg_backend_pid())")
                }
            }
            #expect(error?.bodyError != nil)
            #expect(error?.rollbackError != nil)
            #expect(error?.commitError == nil)
            #expect(await connection.isReusable == false)
            await connection.close()
        }
    }
}
