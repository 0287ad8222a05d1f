import CompassData
import Foundation
import Logging
import Postgres

/// A fresh, migrated database of its own for one test, dropped afterwards.
///
/// ```swift
/// try await TestDatabase.with { database in
///     let connection = try await database.connect()
/// }
/// ```
/// The migrations run once per test process into a template database; each test then
/// gets `CREATE DATABASE … TEMPLATE`, which takes milliseconds and isolates tests that
/// run in parallel.
public struct TestDatabase: Sendable {
    /// Settings pointing at this test's database.
    public let configuration: PostgresConfiguration
    /// Its name.
    public let name: String

    /// Logger for code under test; quiet unless `LOG_LEVEL` is set.
    public static let logger: Logger = {
        var logger = Logger(label: "compass.tests")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    /// Creates a migrated database (optionally with the demo data), runs `body`, drops it.
    public static func with<T>(
        demoData: Bool = false, _ body: (TestDatabase) async throws -> T
    ) async throws -> T {
        try await using(try await create(demoData: demoData), body)
    }

    /// Creates an empty database (no migrations), runs `body`, drops it.
    ///
    /// The empty template is built first: whoever migrates this database (a child process) then
    /// finds the cluster-wide role settings of migration 0013 already made.
    public static func withEmpty<T>(_ body: (TestDatabase) async throws -> T) async throws -> T {
        _ = try await Templates.shared.name(demoData: false, server: TestCluster.shared.serverConfiguration())
        return try await using(try await create(template: "template0"), body)
    }

    /// Runs `body` with `database`, then drops it however `body` ends.
    private static func using<T>(_ database: TestDatabase, _ body: (TestDatabase) async throws -> T) async throws -> T {
        do {
            let value = try await body(database)
            try await database.drop()
            return value
        } catch {
            try? await database.drop()
            throw error
        }
    }

    /// Creates a migrated database; the caller drops it.
    public static func create(demoData: Bool = false) async throws -> TestDatabase {
        let server = try await TestCluster.shared.serverConfiguration()
        return try await create(template: Templates.shared.name(demoData: demoData, server: server))
    }

    private static func create(template: String) async throws -> TestDatabase {
        let server = try await TestCluster.shared.serverConfiguration()
        let name = "compass_test_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        let admin = try await PostgresConnection.connect(to: server, logger: logger)
        let created = await Result(catching: { try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) TEMPLATE \(template)")) })
        await admin.close()
        _ = try created.get()
        return TestDatabase(configuration: server.replacing(database: name), name: name)
    }

    /// Opens a connection to this database (as the superuser).
    public func connect() async throws -> PostgresConnection {
        try await PostgresConnection.connect(to: configuration, logger: Self.logger)
    }

    /// Runs one statement as the superuser on a connection of its own (fixtures, checks past RLS).
    public func query(_ query: PostgresQuery) async throws -> PostgresResult {
        let connection = try await connect()
        let result = await Result { try await connection.query(query) }
        await connection.close()
        return try result.get()
    }

    /// Runs a fixture script (several statements) as the superuser on a connection of its own.
    public func run(script: String) async throws {
        let connection = try await connect()
        let result = await Result { try await connection.executeScript(unsafeSQL: script) }
        await connection.close()
        _ = try result.get()
    }

    /// Drops the database, ending any session still connected to it.
    public func drop() async throws {
        let server = try await TestCluster.shared.serverConfiguration()
        let admin = try await PostgresConnection.connect(to: server, logger: Self.logger)
        try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        await admin.close()
    }
}

/// Builds the template databases once per process.
actor Templates {
    static let shared = Templates()
    private var building: [Bool: Task<String, any Error>] = [:]
    /// The build started last: builds run one after the other, because migration 0013 sets
    /// cluster-wide role settings, and two first runs at once on a fresh cluster collide.
    private var last: Task<String, any Error>?

    func name(demoData: Bool, server: PostgresConfiguration) async throws -> String {
        if let task = building[demoData] { return try await task.value }
        let task = Task { [last] in
            _ = try? await last?.value
            return try await Self.build(demoData: demoData, server: server)
        }
        building[demoData] = task
        last = task
        return try await task.value
    }

    private static func build(demoData: Bool, server: PostgresConfiguration) async throws -> String {
        let name = "compass_template_\(demoData ? "demo" : "empty")_\(getpid())"
        let admin = try await PostgresConnection.connect(to: server, logger: TestDatabase.logger)
        try await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)"))
        try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"))
        await admin.close()
        let connection = try await PostgresConnection.connect(to: server.replacing(database: name), logger: TestDatabase.logger)
        let sql = SQLDirectory(root: TestCluster.repositoryRoot.appendingPathComponent("sql"))
        try await Migrator(directory: sql.migrations).migrate(on: connection)
        if demoData {
            let demo = try String(contentsOf: sql.fixtures.appendingPathComponent("demo.sql"), encoding: .utf8)
            try await connection.withTransaction { try await $0.executeScript(unsafeSQL: demo) }
        }
        await connection.close()
        return name
    }
}

extension Result where Failure == any Error {
    /// Captures the outcome of async work, so cleanup can run before rethrowing.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
