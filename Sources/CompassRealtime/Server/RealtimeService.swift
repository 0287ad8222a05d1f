import Logging
import ServiceLifecycle

/// The worker's background work as one service: the change source feeding the fan-out,
/// the token-expiry and idle sweeper, and the pruner.
///
/// On graceful shutdown it stops accepting clients, tells every channel the server is
/// going away (`system` error, `phx_close`), closes every socket with 1001, and waits up
/// to the grace period for the clients to go. List it after the HTTP application in the
/// `ServiceGroup`: services stop in reverse order, so sockets close before the listener does.
public struct RealtimeService: Service {
    let hub: RealtimeHub
    let source: any RealtimeChangeSource

    /// Runs `source` (by default the hub's snapshot source) into the hub's dispatcher.
    public init(hub: RealtimeHub, source: (any RealtimeChangeSource)? = nil) {
        self.hub = hub
        self.source = source ?? hub.makeChangeSource()
    }

    public func run() async throws {
        let hub = self.hub
        let source = self.source
        let pruner = ChangePruner(
            database: hub.database, retention: hub.configuration.changeRetention, interval: hub.configuration.pruneInterval,
            logger: hub.logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await source.run(into: hub.dispatcher) }
            group.addTask { await pruner.run() }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(1))
                    hub.sweep()
                }
            }
            group.addTask { try await gracefulShutdown() }
            defer { group.cancelAll() }
            // The first to finish is the shutdown signal, or a failure of the source.
            try await group.next()
            await closeAllClients()
        }
    }

    /// Closes every client with 1001 and waits (bounded) for them to disconnect.
    func closeAllClients() async {
        let clients = hub.registry.beginShutdown()
        hub.logger.info("shutting down: closing client connections", metadata: ["realtime.clients": "\(clients.count)"])
        for outbox in clients { outbox.close(.shutdown) }
        let deadline = ContinuousClock.now + hub.configuration.shutdownGracePeriod
        while hub.registry.counts.clients > 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
