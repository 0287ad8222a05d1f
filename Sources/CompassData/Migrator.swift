import Foundation
import Logging
import Postgres

/// Applies `sql/migrations/NNNN_name.sql` files in order, each in its own transaction.
///
/// ```swift
/// let report = try await Migrator(directory: sqlDirectory.migrations).migrate(on: connection)
/// ```
/// Applied files are recorded in `compass.schema_migrations` with a SHA-256 checksum;
/// an applied file whose text changed stops the run with an error naming it. A session
/// advisory lock keeps two runners (two workers starting at once) from interleaving.
public struct Migrator: Sendable {
    /// A migration file.
    public struct Migration: Sendable, Hashable {
        /// The number in the file name.
        public var version: Int
        /// The rest of the file name, without `.sql`.
        public var name: String
        /// The file's SQL text.
        public var sql: String
        /// The file name, for messages.
        public var fileName: String { "\(String(format: "%04d", version))_\(name).sql" }
    }

    /// Where a migration stands.
    public struct Status: Sendable, Hashable {
        public var version: Int
        public var name: String
        /// When it was applied; nil while pending.
        public var appliedAt: Date?
    }

    /// The files, in version order.
    public let migrations: [Migration]

    /// Arbitrary constant shared by every runner: `pg_advisory_lock` key.
    static let lockKey: Int64 = 0x636F_6D70_6173_73

    /// Reads every `NNNN_name.sql` in `directory`.
    public init(directory: URL) throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".sql") }.sorted()
        var migrations: [Migration] = []
        for file in files {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), let version = Int(stem[..<underscore]) else {
                throw MigrationError("migration file \(file) is not named NNNN_name.sql")
            }
            if let clash = migrations.first(where: { $0.version == version }) {
                throw MigrationError("migrations \(clash.fileName) and \(file) share version \(version)")
            }
            let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            migrations.append(Migration(version: version, name: String(stem[stem.index(after: underscore)...]), sql: sql))
        }
        self.migrations = migrations
    }

    /// Applies what is pending and returns the migrations applied now (empty: already up to date).
    @discardableResult
    public func migrate(on connection: PostgresConnection, logger: Logger? = nil) async throws -> [Migration] {
        try await withLock(on: connection) {
            let applied = try await verifiedAppliedVersions(on: connection)
            var newlyApplied: [Migration] = []
            for migration in migrations where applied[migration.version] == nil {
                do {
                    try await connection.withTransaction { transaction in
                        try await transaction.executeScript(unsafeSQL: migration.sql)
                        try await transaction.query(
                            """
                            INSERT INTO compass.schema_migrations (version, name, checksum)
                            VALUES (\(migration.version), \(migration.name), encode(sha256(convert_to(\(migration.sql), 'UTF8')), 'hex'))
                            """)
                    }
                } catch {
                    throw MigrationError("migration \(migration.fileName) failed: \(error)")
                }
                logger?.info("applied migration", metadata: ["migration": "\(migration.fileName)"])
                newlyApplied.append(migration)
            }
            return newlyApplied
        }
    }

    /// Lists every migration with its applied time (nil = pending).
    public func status(on connection: PostgresConnection) async throws -> [Status] {
        try await withLock(on: connection) {
            let applied = try await verifiedAppliedVersions(on: connection)
            return migrations.map { Status(version: $0.version, name: $0.name, appliedAt: applied[$0.version]) }
        }
    }

    private func withLock<T>(on connection: PostgresConnection, _ body: () async throws -> T) async throws -> T {
        try await connection.query("SELECT pg_advisory_lock(\(Self.lockKey))")
        do {
            let value = try await body()
            try await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))")
            return value
        } catch {
            _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))")
            throw error
        }
    }

    /// Creates the bookkeeping table if needed, then checks every applied file is unchanged.
    private func verifiedAppliedVersions(on connection: PostgresConnection) async throws -> [Int: Date] {
        try await connection.executeScript(
            unsafeSQL: """
                CREATE SCHEMA IF NOT EXISTS compass;
                CREATE TABLE IF NOT EXISTS compass.schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    checksum text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                );
                ALTER TABLE compass.schema_migrations ENABLE ROW LEVEL SECURITY;
                """)
        let rows = try await connection.query("SELECT version, name, checksum, applied_at FROM compass.schema_migrations")
        let byVersion = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        var applied: [Int: Date] = [:]
        for row in rows {
            let (version, name, checksum, appliedAt) = try row.decode((Int, String, String, Date).self)
            guard let migration = byVersion[version] else {
                throw MigrationError("applied migration \(version)_\(name) is missing from the migrations directory")
            }
            let current = try await connection.query(
                "SELECT encode(sha256(convert_to(\(migration.sql), 'UTF8')), 'hex')")
            guard try current[0].decode(String.self, at: 0) == checksum else {
                throw MigrationError(
                    "migration \(migration.fileName) was changed after it was applied; "
                        + "migrations are forward-only: add a new file instead")
            }
            applied[version] = appliedAt
        }
        return applied
    }
}

/// A migration run that cannot go on; the message names the file.
public struct MigrationError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
