import CompassTestSupport
import Foundation
import Testing

@testable import Postgres

/// libpq sends text up to its first NUL; these values must be refused, never cut short.
@Suite("NUL bytes in bound values and SQL text")
struct NULByteTests {
    static let truncatable = "abcdef\u{0}rest"
    static let email = "victim\u{0}@example.com"

    /// True when `body` fails with SQLSTATE 22021.
    static func refusedAsNotInRepertoire(_ body: () async throws -> Void) async -> Bool {
        do {
            try await body()
            return false
        } catch SQLState.characterNotInRepertoire {
            return true
        } catch {
            Issue.record("expected 22021, got \(error)")
            return false
        }
    }

    /// Runs `body` on a fresh connection with an empty `notes (body text)` table, then closes it.
    static func withNotes(_ body: (PostgresConnection) async throws -> Void) async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            try await connection.query("CREATE TEMP TABLE notes (body text)")
            try await body(connection)
            await connection.close()
        }
    }

    static func bodies(_ connection: PostgresConnection) async throws -> [String] {
        try await connection.query("SELECT body FROM notes ORDER BY body").map { try $0.decode(String.self, at: 0) }
    }

    @Test func theErrorNamesTheParameterButNotTheValue() throws {
        let query: PostgresQuery = "INSERT INTO users (email, name) VALUES (\("ok"), \(Self.email))"
        #expect(throws: PostgresError.self) { try query.refuseNULBytes(file: #fileID, line: #line) }
        do {
            try query.refuseNULBytes(file: #fileID, line: #line)
        } catch {
            #expect(error.code == .server)
            #expect(error.sqlState == .characterNotInRepertoire)
            #expect(error.message == #"invalid byte sequence for encoding "UTF8": 0x00 in parameter $2"#)
            #expect(!error.description.contains("victim"))
            #expect(!error.debugDescription.contains("victim"))
        }
        let clean: PostgresQuery = "SELECT \("\u{1}ünïcödé ✓ 🌍"), \(nil as String?)"
        try clean.refuseNULBytes(file: #fileID, line: #line)
    }

    @Test func aBoundTextWithANULIsRefusedAndNothingIsWritten() async throws {
        try await Self.withNotes { (connection) async throws in
            let before = await connection.roundTrips
            for value in [Self.truncatable, Self.email, "\u{0}", "trailing\u{0}"] {
                #expect(await Self.refusedAsNotInRepertoire { try await connection.query("INSERT INTO notes VALUES (\(value))") })
                #expect(await Self.refusedAsNotInRepertoire {
                    try await connection.query(PostgresQuery("INSERT INTO notes VALUES (\(value))").prepared)
                })
            }
            #expect(await connection.roundTrips == before)
            #expect(try await Self.bodies(connection).isEmpty)
            #expect(await connection.isReusable)
        }
    }

    @Test func aPipelineWithANULSendsNothing() async throws {
        try await Self.withNotes { (connection) async throws in
            let before = await connection.roundTrips
            let segments: [[PostgresQuery]] = [
                ["INSERT INTO notes VALUES (\("first"))"],
                [PostgresQuery("INSERT INTO notes VALUES (\("second"))").prepared, "INSERT INTO notes VALUES (\(Self.truncatable))"],
            ]
            do {
                _ = try await connection.pipeline(segments: segments)
                Issue.record("the pipeline should be refused")
            } catch let error as PostgresError {
                #expect(error.sqlState == .characterNotInRepertoire)
                #expect(error.statementIndex == 1)
            }
            #expect(await connection.roundTrips == before)
            #expect(try await Self.bodies(connection).isEmpty)
            // The connection left pipeline mode cleanly and still works both ways.
            #expect(try await connection.pipelineResults(["INSERT INTO notes VALUES (\("after"))"]).count == 1)
            #expect(try await Self.bodies(connection) == ["after"])
        }
    }

    @Test func aTransactionWithANULRollsBack() async throws {
        try await Self.withNotes { (connection) async throws in
            #expect(await Self.refusedAsNotInRepertoire {
                try await connection.withTransaction { tx in
                    try await tx.query("INSERT INTO notes VALUES (\("before"))")
                    try await tx.query("INSERT INTO notes VALUES (\(Self.email))")
                }
            })
            #expect(try await Self.bodies(connection).isEmpty)
            #expect(await connection.isReusable)
        }
    }

    @Test func sqlTextAndIdentifiersWithANULAreRefused() async throws {
        try await Self.withNotes { (connection) async throws in
            #expect(await Self.refusedAsNotInRepertoire {
                try await connection.executeScript(unsafeSQL: "INSERT INTO notes VALUES ('a');\u{0} DROP TABLE notes")
            })
            #expect(await Self.refusedAsNotInRepertoire {
                try await connection.query(PostgresQuery(unsafeSQL: "SELECT 1 \u{0}WHERE false"))
            })
            #expect(await Self.refusedAsNotInRepertoire { _ = try await connection.escapeIdentifier("chan\u{0}nel") })
            #expect(try await connection.escapeIdentifier("chan nel") == "\"chan nel\"")
            #expect(try await Self.bodies(connection).isEmpty)
        }
    }

    @Test func textAndByteaWithoutNULsStillRoundTrip() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let text = "\u{1}ünïcödé ✓ 🌍 \u{7F} tab\there"
            let bytes = "\\x00ff4100"
            let select: PostgresQuery = "SELECT \(text)::text, encode(\(bytes)::bytea, 'hex'), octet_length(\(bytes)::bytea)"
            let direct = try await connection.query(select)
            let prepared = try await connection.query(select.prepared)
            let pipelined = try await connection.pipelineResults([select, select.prepared])
            for rows in [direct, prepared] + pipelined {
                let (echoed, hex, length) = try rows[0].decode((String, String, Int).self)
                #expect(echoed == text)
                #expect(hex == "00ff4100")
                #expect(length == 4)
            }
            await connection.close()
        }
    }
}
