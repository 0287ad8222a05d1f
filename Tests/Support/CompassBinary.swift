import Foundation

/// Runs the built `compass` binary, as a user would (CLI end-to-end tests, `/api` parity tests).
public enum CompassBinary {
    /// One finished run.
    public struct Run: Sendable {
        /// The exit status.
        public var status: Int32
        /// Everything written to stdout.
        public var stdout: String
        /// Everything written to stderr.
        public var stderr: String

        /// stdout as one JSON object.
        public func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            guard let dictionary = object as? [String: Any] else { throw HarnessError("stdout is not a JSON object: \(stdout)") }
            return dictionary
        }
    }

    /// The `compass` executable next to the test bundle (`.build*/debug/compass`).
    public static func url() throws -> URL {
        var candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()]
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        for folder in candidates {
            var current = folder
            for _ in 0..<4 {
                let binary = current.appendingPathComponent("compass")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
                current = current.deletingLastPathComponent()
            }
        }
        throw TestClusterError("cannot find the compass binary near \(candidates.map(\.path)); run swift build first")
    }

    /// Runs `compass arguments --database-url <db>` with `stdin` as its input and collects its
    /// output (through files, not pipes).
    public static func run(
        _ arguments: [String], database: TestDatabase?, stdin: String? = nil, environment extra: [String: String] = [:]
    ) async throws -> Run {
        let process = Process()
        process.executableURL = try url()
        process.arguments = arguments + (database.map { ["--database-url", $0.configuration.connectionString] } ?? [])
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "DATABASE_URL")
        environment["COMPASS_SQL_DIR"] = TestCluster.repositoryRoot.appendingPathComponent("sql").path
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("compass-cli-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: scratch.path + ".out", contents: nil)
        _ = FileManager.default.createFile(atPath: scratch.path + ".err", contents: nil)
        _ = FileManager.default.createFile(atPath: scratch.path + ".in", contents: Data((stdin ?? "").utf8))
        defer {
            for suffix in [".out", ".err", ".in"] { try? FileManager.default.removeItem(atPath: scratch.path + suffix) }
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path + ".out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: scratch.path + ".err"))
        process.standardInput = stdin == nil ? FileHandle.nullDevice : try FileHandle(forReadingFrom: URL(fileURLWithPath: scratch.path + ".in"))
        try process.run()
        // Polled, not waitUntilExit(): a blocked cooperative thread would slow every other test.
        while process.isRunning { try await Task.sleep(for: .milliseconds(10)) }
        return Run(
            status: process.terminationStatus,
            stdout: try String(contentsOfFile: scratch.path + ".out", encoding: .utf8),
            stderr: try String(contentsOfFile: scratch.path + ".err", encoding: .utf8))
    }
}
