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

    /// Runs `scripts/pg-cluster` to completion (synchronously: it also runs from `atexit`).
    @discardableResult
    static func runScript(_ arguments: [String]) throws -> String {
        let executable = repositoryRoot.appendingPathComponent("scripts/pg-cluster").path
        let result = try ChildProcess.runBlocking([executable] + arguments)
        guard result.code == 0 else {
            throw TestClusterError("scripts/pg-cluster \(arguments.joined(separator: " ")) failed: \(result.error)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
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
