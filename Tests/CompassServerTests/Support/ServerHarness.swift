import CompassAuth
import CompassHTTP
import CompassRealtime
import CompassServer
import CompassTestSupport
import CompassTokens
import Foundation
import Logging

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
        adjust: (inout ServerConfiguration) -> Void = { _ in }, auth: AuthConfiguration = AuthConfiguration(),
        logger: Logger = TestDatabase.logger, _ body: (ServerHarness) async throws -> Void
    ) async throws {
        try await TestDatabase.with(demoData: true) { database in
            var listener = database.configuration
            listener.set("application_name", "server-listen-\(UUID().uuidString.prefix(8))")
            var configuration = ServerConfiguration(database: database.configuration, listener: listener, jwtSecret: secret)
            configuration.port = 0
            configuration.realtime.shutdownGracePeriod = .seconds(3)
            configuration.auth = auth
            adjust(&configuration)
            let server = try await CompassServer(configuration: configuration, logger: logger)
            try await server.withRunning { running in
                try await body(ServerHarness(database: database, server: server, port: running.port, keys: try APIKeys(secret: secret)))
            }
        }
    }
}
