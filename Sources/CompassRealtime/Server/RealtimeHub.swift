import CompassHTTP
import CompassTokens
import Foundation
import Logging
import Postgres

/// Everything the realtime API's parts share: registry, catalog, tokens, metrics, the fan-out.
///
/// ```swift
/// let hub = RealtimeHub(configuration: RealtimeConfiguration(), context: serverContext)
/// ```
public final class RealtimeHub: Sendable {
    /// The realtime settings.
    public let configuration: RealtimeConfiguration
    /// Connected clients and joined channels.
    public let registry: SubscriptionRegistry
    /// Table metadata.
    public let catalog: RealtimeCatalog
    /// Token checks (the server's one verifier).
    public let verifier: AccessTokenVerifier
    /// Counters for `/metrics`.
    public let metrics: RealtimeMetrics
    /// The fan-out's own pool (kept apart from the HTTP APIs', so a busy REST load cannot starve delivery) and retries.
    public let database: RealtimeDatabase
    /// The fan-out the change source feeds.
    public let dispatcher: RealtimeDispatcher
    /// Where the LISTEN connection goes.
    public let listenerConfiguration: PostgresConfiguration
    /// Where the realtime parts log.
    public let logger: Logger
    /// Returns freed heap to the system after bursts of disconnects.
    let heapTrimmer: HeapTrimmer
    /// Each event loop's socket writes, drained once per batch of changes.
    let flushers = EventLoopFlushers()
    /// What every client's waiting frames (and what NIO still holds of them) may hold together:
    /// each outbox is bounded on its own, but two hundred sockets that never read held 3 GB.
    /// Past it, a client that already has frames waiting is closed as too slow at its next frame;
    /// one whose queue is empty still gets its frame (one large event is not a slow client).
    public let outboundBudget: ByteBudget

    /// Builds the shared parts on the server's context; nothing connects yet.
    public init(configuration: RealtimeConfiguration, context: ServerContext) {
        self.configuration = configuration
        self.logger = context.logger
        self.listenerConfiguration = context.listener
        self.database = RealtimeDatabase(configuration: context.postgres, logger: context.logger)
        self.registry = SubscriptionRegistry()
        self.outboundBudget = ByteBudget(limit: configuration.outboundBufferTotalBytes)
        self.heapTrimmer = HeapTrimmer(
            disconnects: configuration.memoryTrimDisconnects, interval: configuration.memoryTrimInterval,
            settle: configuration.memoryTrimSettle)
        self.catalog = RealtimeCatalog(database: database)
        self.verifier = context.verifier
        self.metrics = RealtimeMetrics(registry: context.metrics)
        self.dispatcher = RealtimeDispatcher(
            registry: registry, catalog: catalog, database: database, metrics: metrics,
            maximumRecordBytes: configuration.maximumRecordBytes, logger: context.logger)
    }

    /// The change source feeding ``dispatcher``: stored changes, woken by NOTIFY.
    public func makeChangeSource() -> SnapshotChangeSource {
        var source = SnapshotChangeSource(database: database, listenerConfiguration: listenerConfiguration, logger: logger)
        source.fallbackInterval = configuration.fallbackPollInterval
        return source
    }

    /// The Prometheus text of every metric in the hub's registry (gauges refreshed first).
    public func renderMetrics() -> String {
        metrics.refreshGauges(counts: registry.counts)
        return metrics.registry.emitToString()
    }

    /// Ends channels whose token expired and connections that went silent; trims the heap after a burst of disconnects.
    func sweep(now: Date = Date()) {
        heapTrimmer.trimIfDue(departures: registry.takeDepartures())
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
