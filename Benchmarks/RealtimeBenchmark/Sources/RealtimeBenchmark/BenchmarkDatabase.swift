import CompassData
import CompassTestSupport
import Foundation
import Logging
import Postgres

/// The benchmark's database: a private cluster (or BENCH_DATABASE_URL), migrated, with users.
struct BenchmarkDatabase {
    /// A superuser URL to the benchmark database.
    let url: String
    let configuration: PostgresConfiguration
    let clusterFolder: String?
    static let logger = Logger(label: "bench")

    /// Starts (or reuses) a server, creates `compass_bench` fresh and applies the migrations.
    static func prepare(repositoryRoot: URL) async throws -> BenchmarkDatabase {
        var clusterFolder: String?
        var serverURL: String
        if let given = ProcessInfo.processInfo.environment["BENCH_DATABASE_URL"], !given.isEmpty {
            serverURL = given
        } else {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compass-bench-\(UUID().uuidString.prefix(8))").path
            let started = try await ChildProcess.run([repositoryRoot.appendingPathComponent("scripts/pg-cluster").path, "start", folder])
            guard started.code == 0 else { throw BenchmarkError("pg-cluster start failed: \(started.error)") }
            serverURL = started.output.split(separator: "\n").last.map(String.init) ?? ""
            clusterFolder = folder
        }
        let admin = try await PostgresConnection.connect(to: try PostgresConfiguration(url: serverURL), logger: logger)
        try await admin.query("DROP DATABASE IF EXISTS compass_bench WITH (FORCE)")
        try await admin.query("CREATE DATABASE compass_bench")
        // Larger shared buffers help neither side much; leave the server's settings alone.
        await admin.close()
        let url = Self.replacingDatabase(in: serverURL, with: "compass_bench")
        let configuration = try PostgresConfiguration(url: url, applicationName: "bench")
        let connection = try await PostgresConnection.connect(to: configuration, logger: logger)
        // The project's own migrator: it keeps compass.schema_migrations, which later migrations read.
        _ = try await Migrator(directory: repositoryRoot.appendingPathComponent("sql/migrations")).migrate(on: connection)
        await connection.close()
        return BenchmarkDatabase(url: url, configuration: configuration, clusterFolder: clusterFolder)
    }

    /// `…/postgres?host=…` → `…/compass_bench?host=…` (URL form only).
    static func replacingDatabase(in url: String, with name: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url + " dbname=\(name)" }
        let rest = url[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else {
            let query = rest.firstIndex(of: "?") ?? rest.endIndex
            return String(url[..<query]) + "/\(name)" + String(rest[query...])
        }
        let afterSlash = rest[rest.index(after: slash)...]
        let end = afterSlash.firstIndex(of: "?") ?? afterSlash.endIndex
        return String(url[..<rest.index(after: slash)]) + name + String(afterSlash[end...])
    }

    /// The id of bench user `index` (deterministic).
    static func userID(_ index: Int) -> String {
        let hex = String(index, radix: 16)
        return "b0000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// Creates users 0..<count (with profiles); user `count` is the actor of every activity.
    func createUsers(_ count: Int) async throws {
        let connection = try await connect()
        try await connection.query(
            """
            INSERT INTO auth.users (id, email)
            SELECT ('b0000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'bench' || i || '@example.com'
              FROM generate_series(0, \(count)) AS i
            ON CONFLICT DO NOTHING
            """)
        try await connection.query(
            """
            INSERT INTO public.profiles (user_id, username)
            SELECT ('b0000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid, 'bench_' || i
              FROM generate_series(0, \(count)) AS i
            ON CONFLICT DO NOTHING
            """)
        await connection.close()
    }

    func connect() async throws -> PostgresConnection {
        try await PostgresConnection.connect(to: configuration, logger: Self.logger)
    }

    func stop(repositoryRoot: URL) async {
        guard let clusterFolder else { return }
        _ = try? await ChildProcess.run([repositoryRoot.appendingPathComponent("scripts/pg-cluster").path, "stop", clusterFolder])
        try? FileManager.default.removeItem(atPath: clusterFolder)
    }
}
