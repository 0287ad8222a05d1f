import CompassTokens
import Foundation
import Logging
import Postgres

/// Everything the worker's parts share: registry, catalog, tokens, metrics, the fan-out.
///
/// ```swift
/// let hub = try await RealtimeHub(configuration: configuration, logger: logger)
/// ```
public final class RealtimeHub: Sendable {
    /// The worker's settings.
    public let configuration: WorkerConfiguration
    /// Connected clients and joined channels.
    public let registry: SubscriptionRegistry
    /// Table metadata.
    public let catalog: RealtimeCatalog
    /// Token checks.
    public let verifier: AccessTokenVerifier
    /// Counters for `/metrics`.
    public let metrics: RealtimeMetrics
    /// The database pool and retries.
    public let database: RealtimeDatabase
    /// The fan-out the change source feeds.
    public let dispatcher: RealtimeDispatcher
    /// Where the pool's connections go.
    public let postgresConfiguration: PostgresConfiguration
    /// Where the LISTEN connection goes.
    public let listenerConfiguration: PostgresConfiguration
    /// Where the worker logs.
    public let logger: Logger

    /// Builds the shared parts from `configuration.databaseURL`; nothing connects yet.
    public convenience init(configuration: WorkerConfiguration, logger: Logger) async throws {
        var postgres = try PostgresConfiguration(url: configuration.databaseURL, applicationName: "compass-worker")
        postgres.preparedStatementCacheSize = configuration.statementCacheSize
        // Its own application_name, so operators can tell the LISTEN connection apart.
        let listener = try PostgresConfiguration(
            url: configuration.databaseURL, applicationName: configuration.listenApplicationName)
        try await self.init(configuration: configuration, postgres: postgres, listener: listener, logger: logger)
    }

    /// Builds the shared parts against explicit database configurations (tests, benchmarks).
    public init(
        configuration: WorkerConfiguration, postgres: PostgresConfiguration, listener: PostgresConfiguration? = nil,
        logger: Logger
    ) async throws {
        self.configuration = configuration
        self.logger = logger
        self.postgresConfiguration = postgres
        self.listenerConfiguration = listener ?? postgres
        self.database = RealtimeDatabase(configuration: postgresConfiguration, logger: logger)
        self.registry = SubscriptionRegistry()
        self.catalog = RealtimeCatalog(database: database)
        self.verifier = try await AccessTokenVerifier(secret: configuration.jwtSecret)
        self.metrics = RealtimeMetrics()
        self.dispatcher = RealtimeDispatcher(
            registry: registry, catalog: catalog, database: database, metrics: metrics,
            maximumRecordBytes: configuration.maximumRecordBytes, logger: logger)
    }

    /// The change source feeding ``dispatcher``: stored changes, woken by NOTIFY.
    public func makeChangeSource() -> SnapshotChangeSource {
        var source = SnapshotChangeSource(database: database, listenerConfiguration: listenerConfiguration, logger: logger)
        source.fallbackInterval = configuration.fallbackPollInterval
        return source
    }

    /// The Prometheus text for `/metrics`.
    public func renderMetrics() -> String {
        metrics.render(counts: registry.counts)
    }

    /// Ends channels whose token expired and connections that went silent.
    func sweep(now: Date = Date()) {
        for channel in registry.removeChannels(expiredBy: now) {
            channel.outbox.enqueue(
                RealtimeMessage.system(
                    topic: channel.topic, joinRef: channel.joinRef, extension: RealtimeSystemExtension.system, status: .error,
                    message: "Token has expired; send a new access_token or rejoin"))
            channel.outbox.enqueue(RealtimeMessage.close(topic: channel.topic, joinRef: channel.joinRef))
        }
        for outbox in registry.clients(silentSince: .now - configuration.idleTimeout) {
            outbox.close(.idle)
        }
    }
}
