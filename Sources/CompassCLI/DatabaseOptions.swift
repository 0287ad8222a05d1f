import ArgumentParser
import Foundation
import Logging
import Postgres

/// `--database-url` and `--json`, shared by every command.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("database-url"), help: "PostgreSQL URL (default: $DATABASE_URL).")
    var databaseURL: String?

    @Flag(help: "Print one JSON document instead of a table.")
    var json = false

    /// The URL from the flag or the environment; empty counts as missing.
    var resolvedURL: String? {
        if let databaseURL, !databaseURL.isEmpty { return databaseURL }
        if let fromEnvironment = ProcessInfo.processInfo.environment["DATABASE_URL"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return nil
    }

    func validate() throws {
        _ = try configuration()
    }

    /// Parses the URL (no network); a missing or malformed one is bad input.
    func configuration() throws -> PostgresConfiguration {
        guard let url = resolvedURL else {
            throw ValidationError("no database: pass --database-url or set DATABASE_URL")
        }
        do {
            return try PostgresConfiguration(url: url, applicationName: "compass-cli")
        } catch let error as PostgresError {
            throw ValidationError("invalid --database-url: \(error.message)")
        }
    }

    /// Opens one connection; failures are runtime errors naming the server, never the password.
    func connect() async throws -> PostgresConnection {
        try await PostgresConnection.connect(to: configuration(), logger: CLILogger.shared)
    }

    /// Opens a connection, runs `body`, closes it.
    ///
    /// `quietNotices` hides the server's NOTICEs (`… already exists, skipping`) for admin scripts.
    func withConnection<T>(quietNotices: Bool = false, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await connect()
        do {
            if quietNotices { try await connection.query("SET client_min_messages = warning") }
            let value = try await body(connection)
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }
}

/// The CLI's logger: stderr, `LOG_LEVEL` (default warning).
enum CLILogger {
    static let shared: Logger = {
        var logger = Logger(label: "compass.cli", factory: { label in StreamLogHandler.standardError(label: label) })
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        return logger
    }()
}
