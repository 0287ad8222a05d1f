import ArgumentParser
import CompassData
import Foundation

/// `compass seed demo`: loads `sql/fixtures/demo.sql` in one transaction (idempotent).
struct SeedDemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Load sql/fixtures/demo.sql (two families and a small social graph)."
    )

    @OptionGroup var options: DatabaseOptions

    func run() async throws {
        let file = try SQLDirectory.locate().fixtures.appendingPathComponent("demo.sql")
        let sql: String
        do {
            sql = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw CLIFailure.runtime("cannot read \(file.path): \(error.localizedDescription)")
        }
        let counts = try await options.withConnection(quietNotices: true) { connection in
            try await connection.withTransaction { transaction in
                try await transaction.executeScript(unsafeSQL: sql)
                return try await TableCounts.read(on: transaction)
            }
        }
        if options.json { return try Output.json(["loaded": counts]) }
        Output.line("Loaded demo data: " + counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
    }
}
