import Foundation

/// Finds the project's `sql/` folder (migrations and fixtures).
public struct SQLDirectory: Sendable {
    /// The `sql/` folder itself.
    public var root: URL
    /// `sql/migrations`.
    public var migrations: URL { root.appendingPathComponent("migrations") }
    /// `sql/fixtures`.
    public var fixtures: URL { root.appendingPathComponent("fixtures") }

    /// Uses an explicit folder.
    public init(root: URL) { self.root = root }

    /// `$COMPASS_SQL_DIR`, else the first `sql/migrations` found walking up from the current
    /// directory, then from the executable's folder (so `.build/debug/compass` finds the checkout's).
    public static func locate() throws -> SQLDirectory {
        if let explicit = ProcessInfo.processInfo.environment["COMPASS_SQL_DIR"], !explicit.isEmpty {
            return SQLDirectory(root: URL(fileURLWithPath: explicit))
        }
        let starts = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
            URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent(),
        ]
        for start in starts {
            var folder = start.standardizedFileURL
            while true {
                let candidate = folder.appendingPathComponent("sql")
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("migrations").path) {
                    return SQLDirectory(root: candidate)
                }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        throw MigrationError("cannot find the sql/migrations folder; set COMPASS_SQL_DIR")
    }
}
