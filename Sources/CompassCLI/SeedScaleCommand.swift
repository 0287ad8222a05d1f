import ArgumentParser
import CompassData
import Foundation

/// `compass seed scale --users N [--seed S]`: a large generated data set, with a progress bar on stderr.
struct SeedScaleCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale",
        abstract: "Generate a large realistic data set (10,000 users: about 1.5 million rows).",
        discussion: """
            Runs as the connecting (super)user with triggers skipped (session_replication_role = replica): \
            notifications are written directly and no realtime change rows are recorded. \
            Pass --triggers to run every trigger instead (slower).
            """
    )

    @OptionGroup var options: DatabaseOptions

    @Option(parsing: .unconditional, help: "How many users to create (at least 4).")
    var users: Int

    @Option(parsing: .unconditional, help: "Seed, 0 to 65535: the same seed always gives the same data.")
    var seed: Int = 1

    @Option(name: .customLong("batch-size"), parsing: .unconditional, help: "Users per transaction.")
    var batchSize: Int = 200

    @Flag(help: "Run the tables' triggers (realtime change rows, notifications) instead of skipping them.")
    var triggers = false

    func validate() throws {
        guard users >= 4 else { throw ValidationError("--users must be at least 4, got \(users)") }
        guard users <= 2_000_000 else { throw ValidationError("--users must be at most 2000000, got \(users)") }
        guard (0...0xFFFF).contains(seed) else { throw ValidationError("--seed must be between 0 and 65535, got \(seed)") }
        guard (4...100_000).contains(batchSize) else {
            throw ValidationError("--batch-size must be from 4 to 100000, got \(batchSize)")
        }
    }

    func run() async throws {
        let dataSet = ScaleDataSet(users: users, seed: seed, batchSize: batchSize, triggers: triggers)
        let bar = ProgressBar(enabled: true)
        let (report, counts) = try await options.withConnection(quietNotices: true) { connection in
            let report = try await dataSet.generate(on: connection) { bar.show($0) }
            return (report, try await TableCounts.read(on: connection))
        }
        bar.finish()
        let seconds = Double(report.duration.components.seconds) + Double(report.duration.components.attoseconds) / 1e18
        if options.json {
            return try Output.json(ScaleOutput(
                users: users, seed: seed, triggers: triggers, insertedRows: report.rows, seconds: seconds, tables: counts))
        }
        Output.table(["table", "rows"], counts.sorted { $0.key < $1.key }.map { [$0.key, String($0.value)] })
        let rate = seconds > 0 ? Int(Double(report.rows) / seconds) : report.rows
        Output.line(
            "Inserted \(report.rows) rows for \(users) users in \(String(format: "%.1f", seconds)) s (\(rate) rows/s)"
                + (triggers ? "" : "; triggers skipped, so no realtime change rows were recorded"))
    }
}

/// The `--json` report of a scale run.
struct ScaleOutput: Encodable {
    var users: Int
    var seed: Int
    var triggers: Bool
    var insertedRows: Int
    var seconds: Double
    var tables: [String: Int]
}
