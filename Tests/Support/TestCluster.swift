import Foundation
import Logging
import Postgres

/// The PostgreSQL server tests talk to: `COMPASS_TEST_DATABASE_URL`, or a throwaway cluster.
///
/// Without the variable, the first test to ask starts a private cluster with
/// `scripts/pg-cluster` in a temporary folder (initdb, unix socket, free port; as root
/// the server runs as `postgres`) and stops it when the test process exits. Database
/// tests never skip: if no server can be had, they fail with the reason.
public actor TestCluster {
    /// The one cluster of this test process.
    public static let shared = TestCluster()

    private var configuration: PostgresConfiguration?

    /// The repository root, found from this file's path.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A connection configuration for the server's maintenance database.
    public func serverConfiguration() throws -> PostgresConfiguration {
        if let configuration { return configuration }
        let url: String
        if let fromEnvironment = ProcessInfo.processInfo.environment["COMPASS_TEST_DATABASE_URL"], !fromEnvironment.isEmpty {
            url = fromEnvironment
        } else {
            url = try Self.startThrowawayCluster()
        }
        let configuration = try PostgresConfiguration(url: url, applicationName: "compass-tests")
        self.configuration = configuration
        return configuration
    }

    private static func startThrowawayCluster() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("compass-test-\(UUID().uuidString.prefix(8))")
        let url = try runScript(["start", folder.path])
        throwawayClusterFolder = folder.path
        atexit(stopThrowawayCluster)
        return url
    }

    /// Runs `scripts/pg-cluster`; output goes through files, not pipes, because the
    /// server it starts inherits descriptors and would hold a pipe open forever.
    @discardableResult
    static func runScript(_ arguments: [String]) throws -> String {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("pg-cluster-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: scratch.path + ".out", contents: nil)
        FileManager.default.createFile(atPath: scratch.path + ".err", contents: nil)
        defer {
            try? FileManager.default.removeItem(atPath: scratch.path + ".out")
            try? FileManager.default.removeItem(atPath: scratch.path + ".err")
        }
        // posix_spawn + waitpid: Foundation's Process did not notice this child's exit here.
        let executable = repositoryRoot.appendingPathComponent("scripts/pg-cluster").path
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, scratch.path + ".out", O_WRONLY | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, scratch.path + ".err", O_WRONLY | O_TRUNC, 0o600)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw TestClusterError("cannot run \(executable): errno \(spawned)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitCode = (status >> 8) & 0xFF
        let text = (try? String(contentsOfFile: scratch.path + ".out", encoding: .utf8)) ?? ""
        guard exitCode == 0 else {
            let reason = (try? String(contentsOfFile: scratch.path + ".err", encoding: .utf8)) ?? ""
            throw TestClusterError("scripts/pg-cluster \(arguments.joined(separator: " ")) failed: \(reason)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The test server could not be started or reached.
public struct TestClusterError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Set once, before `atexit` registration; read only at process exit.
nonisolated(unsafe) private var throwawayClusterFolder: String?

private func stopThrowawayCluster() {
    guard let folder = throwawayClusterFolder else { return }
    _ = try? TestCluster.runScript(["stop", folder])
    try? FileManager.default.removeItem(atPath: folder)
}
