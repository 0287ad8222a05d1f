import CompassTokens
import Foundation
import Logging

/// The worker's settings, from the environment.
///
/// ```swift
/// let configuration = try WorkerConfiguration(environment: ProcessInfo.processInfo.environment)
/// ```
/// `DATABASE_URL` and `COMPASS_JWT_SECRET` are required; `COMPASS_WORKER_HOST` (127.0.0.1),
/// `COMPASS_WORKER_PORT` (4000), `LOG_LEVEL` (info) and the `COMPASS_REALTIME_*` tunables
/// are optional.
public struct WorkerConfiguration: Sendable {
    /// Where the database is (`authenticator` or a superuser).
    public var databaseURL: String
    /// The HS256 secret tokens are signed with.
    public var jwtSecret: String
    /// The address to listen on.
    public var host: String = "127.0.0.1"
    /// The port to listen on (0 picks a free one).
    public var port: Int = 4000
    /// How much to log.
    public var logLevel: Logger.Level = .info
    /// Frames a client may have waiting before it is closed as too slow.
    public var outboundBufferFrames = 1000
    /// Channels one connection may join.
    public var maximumChannelsPerConnection = 100
    /// Largest client message accepted; larger ones are answered with an error and dropped.
    public var maximumMessageBytes = 256 * 1024
    /// Records larger than this are sent cut down with `Error 413` (the reference's 1 MB).
    public var maximumRecordBytes = 1 << 20
    /// A connection silent this long is closed (clients heartbeat every 25 s).
    public var idleTimeout: Duration = .seconds(60)
    /// How long stored changes are kept before pruning.
    public var changeRetention: Duration = .seconds(3600)
    /// How often pruning runs.
    public var pruneInterval: Duration = .seconds(60)
    /// Poll `realtime.changes` at least this often, notifications or not.
    public var fallbackPollInterval: Duration = .seconds(1)
    /// How long shutdown waits for clients to take their close frames.
    public var shutdownGracePeriod: Duration = .seconds(5)
    /// Connections the HTTP APIs (auth, REST, /api) may hold open at once.
    public var apiPoolSize = 10
    /// Statements each database connection keeps prepared; 0 for a pooler that cannot keep them.
    public var statementCacheSize = 128
    /// The `application_name` of the LISTEN connection.
    public var listenApplicationName = "compass-worker-listen"

    /// Makes a configuration with explicit values (tests, benchmarks).
    public init(databaseURL: String, jwtSecret: String) {
        self.databaseURL = databaseURL
        self.jwtSecret = jwtSecret
    }

    /// Reads the environment; a missing or malformed setting throws a message naming it.
    public init(environment: [String: String]) throws(WorkerConfigurationError) {
        func value(_ name: String) -> String? {
            guard let text = environment[name]?.trimmingWhitespace, !text.isEmpty else { return nil }
            return text
        }
        guard let databaseURL = value("DATABASE_URL") else { throw WorkerConfigurationError("DATABASE_URL is not set") }
        guard let secret = environment["COMPASS_JWT_SECRET"], !secret.isEmpty else {
            throw WorkerConfigurationError("COMPASS_JWT_SECRET is not set")
        }
        do {
            try JWTSecretError.check(secret)
        } catch {
            throw WorkerConfigurationError(error.description)
        }
        self.init(databaseURL: databaseURL, jwtSecret: secret)
        if let host = value("COMPASS_WORKER_HOST") { self.host = host }
        if let text = value("COMPASS_WORKER_PORT") {
            guard let port = Int(text), (0...65535).contains(port) else {
                throw WorkerConfigurationError("COMPASS_WORKER_PORT '\(text)' is not a port number")
            }
            self.port = port
        }
        if let text = value("LOG_LEVEL") {
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw WorkerConfigurationError("LOG_LEVEL '\(text)' is not one of trace, debug, info, notice, warning, error, critical")
            }
            self.logLevel = level
        }
        func seconds(_ name: String) throws(WorkerConfigurationError) -> Duration? {
            guard let text = value(name) else { return nil }
            guard let number = Double(text), number > 0 else {
                throw WorkerConfigurationError("\(name) '\(text)' is not a positive number of seconds")
            }
            return .milliseconds(Int64(number * 1000))
        }
        func count(_ name: String) throws(WorkerConfigurationError) -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text), number > 0 else {
                throw WorkerConfigurationError("\(name) '\(text)' is not a positive whole number")
            }
            return number
        }
        if let retention = try seconds("COMPASS_REALTIME_RETENTION_SECONDS") { changeRetention = retention }
        if let interval = try seconds("COMPASS_REALTIME_PRUNE_INTERVAL_SECONDS") { pruneInterval = interval }
        if let interval = try seconds("COMPASS_REALTIME_POLL_INTERVAL_SECONDS") { fallbackPollInterval = interval }
        if let timeout = try seconds("COMPASS_REALTIME_IDLE_TIMEOUT_SECONDS") { idleTimeout = timeout }
        if let frames = try count("COMPASS_REALTIME_OUTBOUND_BUFFER") { outboundBufferFrames = frames }
        if let size = try count("COMPASS_DB_POOL_SIZE") { apiPoolSize = size }
        if let text = value("COMPASS_DB_STATEMENT_CACHE_SIZE") {
            guard let size = Int(text), size >= 0 else {
                throw WorkerConfigurationError("COMPASS_DB_STATEMENT_CACHE_SIZE '\(text)' is not a whole number (0 turns the cache off)")
            }
            statementCacheSize = size
        }
    }

    /// The base URL clients are given (`ws://host:port/realtime/v1`).
    public func clientURL(port: Int? = nil) -> String {
        "ws://\(host):\(port ?? self.port)/realtime/v1"
    }
}

/// A setting is missing or malformed; the message names it (never a secret's value).
public struct WorkerConfigurationError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
