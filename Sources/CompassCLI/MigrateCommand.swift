import ArgumentParser
import CompassData
import Foundation

/// `compass migrate [--status]`: applies pending migrations, or lists applied and pending ones.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending migrations (or list them with --status)."
    )

    @OptionGroup var options: DatabaseOptions

    @Flag(help: "List applied and pending migrations instead of applying.")
    var status = false

    func run() async throws {
        let migrator = try Migrator(directory: SQLDirectory.locate().migrations)
        try await options.withConnection(quietNotices: true) { connection in
            if status {
                let rows = try await migrator.status(on: connection).map(MigrationRow.init)
                if options.json { return try Output.json(["migrations": rows]) }
                Output.table(
                    ["version", "name", "state", "applied at"],
                    rows.map { [String(format: "%04d", $0.version), $0.name, $0.state, $0.appliedAt ?? ""] })
            } else {
                let applied = try await migrator.migrate(on: connection, logger: CLILogger.shared)
                let rows = applied.map { MigrationRow(version: $0.version, name: $0.name, state: "applied", appliedAt: nil) }
                if options.json { return try Output.json(["applied": rows]) }
                if applied.isEmpty {
                    Output.line("Database is up to date (\(migrator.migrations.count) migrations).")
                } else {
                    applied.forEach { Output.line("applied \($0.fileName)") }
                }
            }
        }
    }
}

/// One migration as printed.
struct MigrationRow: Encodable {
    var version: Int
    var name: String
    var state: String
    var appliedAt: String?

    init(version: Int, name: String, state: String, appliedAt: String?) {
        self.version = version
        self.name = name
        self.state = state
        self.appliedAt = appliedAt
    }

    init(_ status: Migrator.Status) {
        self.init(
            version: status.version, name: status.name, state: status.appliedAt == nil ? "pending" : "applied",
            appliedAt: status.appliedAt.map { $0.formatted(.iso8601) })
    }
}
