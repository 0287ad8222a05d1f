import CompassData
import CompassTestSupport
import Foundation
import Postgres
import Testing

@Suite("Migration runner against a real server")
struct MigratorTests {
    /// A folder of migration files for one test.
    private func folder(_ files: [String: String]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        for (name, sql) in files {
            try sql.write(to: url.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return url
    }

    @Test func projectMigrationsApplyOnceThenReportUpToDate() async throws {
        try await TestDatabase.withEmpty { database in
            let connection = try await database.connect()
            let migrator = try Migrator(directory: SQLDirectory(root: TestCluster.repositoryRoot.appendingPathComponent("sql")).migrations)
            let applied = try await migrator.migrate(on: connection)
            #expect(applied.map(\.version) == migrator.migrations.map(\.version))
            #expect(!applied.isEmpty)
            #expect(try await migrator.migrate(on: connection).isEmpty)
            let status = try await migrator.status(on: connection)
            #expect(status.allSatisfy { $0.appliedAt != nil })
            await connection.close()
        }
    }

    @Test func changedAppliedFileStopsTheRunNamingIt() async throws {
        try await TestDatabase.withEmpty { database in
            let connection = try await database.connect()
            let directory = try folder(["0001_people.sql": "CREATE TABLE people (id int);"])
            defer { try? FileManager.default.removeItem(at: directory) }
            try await Migrator(directory: directory).migrate(on: connection)
            try "CREATE TABLE people (id bigint);".write(
                to: directory.appendingPathComponent("0001_people.sql"), atomically: true, encoding: .utf8)
            try "CREATE TABLE pets (id int);".write(
                to: directory.appendingPathComponent("0002_pets.sql"), atomically: true, encoding: .utf8)
            let error = await #expect(throws: MigrationError.self) {
                try await Migrator(directory: directory).migrate(on: connection)
            }
            #expect(error?.description.contains("0001_people.sql") == true)
            // Nothing after the changed file ran.
            let pets = try await connection.query("SELECT to_regclass('public.pets') IS NULL")
            #expect(try pets[0].decode(Bool.self, at: 0))
            await connection.close()
        }
    }

    @Test func failingFileRollsBackAloneAndIsNamed() async throws {
        try await TestDatabase.withEmpty { database in
            let connection = try await database.connect()
            let directory = try folder([
                "0001_people.sql": "CREATE TABLE people (id int);",
                "0002_broken.sql": "CREATE TABLE half_done (id int);\nCREATE TABLE oops (id nosuchtype);",
            ])
            defer { try? FileManager.default.removeItem(at: directory) }
            let error = await #expect(throws: MigrationError.self) {
                try await Migrator(directory: directory).migrate(on: connection)
            }
            #expect(error?.description.contains("0002_broken.sql") == true)
            let state = try await connection.query(
                """
                SELECT to_regclass('public.people') IS NOT NULL, to_regclass('public.half_done') IS NULL,
                       (SELECT array_agg(version ORDER BY version) FROM compass.schema_migrations)
                """)
            let (peopleExists, halfDoneAbsent, versions) = try state[0].decode((Bool, Bool, [Int]).self)
            #expect(peopleExists && halfDoneAbsent)
            #expect(versions == [1])
            await connection.close()
        }
    }

    @Test func concurrentRunnersNeverInterleave() async throws {
        try await TestDatabase.withEmpty { database in
            let directory = try folder([
                "0001_counter.sql": "CREATE TABLE counter (n int); INSERT INTO counter VALUES (1);",
                "0002_slow.sql": "SELECT pg_sleep(0.3); UPDATE counter SET n = n + 1;",
            ])
            defer { try? FileManager.default.removeItem(at: directory) }
            let migrator = try Migrator(directory: directory)
            let first = try await database.connect()
            let second = try await database.connect()
            async let a = migrator.migrate(on: first)
            async let b = migrator.migrate(on: second)
            let (appliedA, appliedB) = try await (a, b)
            #expect(appliedA.count + appliedB.count == 2)
            let counter = try await first.query("SELECT n FROM counter")
            #expect(try counter[0].decode(Int.self, at: 0) == 2)
            await first.close()
            await second.close()
        }
    }
}
