import CompassAuth
import CompassHTTP
import CompassRealtime
import CompassServer
import CompassTestSupport
import CompassTokens
import Foundation
import Logging
import ServiceLifecycle

@testable import Postgres

/// A live compass-worker (every API on one port) over a fresh demo database.
struct ServerHarness {
    static let secret = "server-tests-secret-0123456789abcdef"
    let database: TestDatabase
    let server: CompassServer
    let port: Int
    let keys: APIKeys

    /// The base URL the Supabase clients are given.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Runs `body` against a running server; `adjust` tunes the configuration first.
    static func with(
        adjust: (inout WorkerConfiguration) -> Void = { _ in }, auth: AuthConfiguration = AuthConfiguration(),
        logger: Logger = TestDatabase.logger, _ body: (ServerHarness) async throws -> Void
    ) async throws {
        try await TestDatabase.with(demoData: true) { database in
            var configuration = WorkerConfiguration(databaseURL: "unused", jwtSecret: secret)
            configuration.port = 0
            configuration.shutdownGracePeriod = .seconds(3)
            configuration.listenApplicationName = "server-listen-\(UUID().uuidString.prefix(8))"
            adjust(&configuration)
            var listener = database.configuration
            listener.set("application_name", configuration.listenApplicationName)
            let hub = try await RealtimeHub(
                configuration: configuration, postgres: database.configuration, listener: listener, logger: logger)
            let server = try await CompassServer(hub: hub, auth: auth)
            let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
            let group = server.makeServiceGroup(gracefulShutdownSignals: []) { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
            }
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next() else { throw HarnessError("the server never started") }
                let deadline = ContinuousClock.now + .seconds(10)
                while !hub.dispatcher.isSourceConnected {
                    guard ContinuousClock.now < deadline else { throw HarnessError("the worker never listened") }
                    try await Task.sleep(for: .milliseconds(20))
                }
                let harness = ServerHarness(
                    database: database, server: server, port: port, keys: try APIKeys(secret: secret))
                do {
                    try await body(harness)
                } catch {
                    await group.triggerGracefulShutdown()
                    throw error
                }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
        }
    }
}
