import CompassTokens
import Logging
import Postgres

/// Tails realtime changes in process, as one subscriber would receive them (`compass listen`).
///
/// ```swift
/// let tail = RealtimeTail(configuration: postgres, logger: logger)
/// try await tail.run(claims: claims, binding: ["event": "*", "schema": "public"]) { data in
///     print(data.jsonText)
/// }
/// ```
/// It runs the worker's own parts — a pool, the snapshot change source, the fan-out with its
/// RLS checks — for one channel and no socket, and hands over each event's `data` object.
public struct RealtimeTail: Sendable {
    let database: RealtimeDatabase
    let listenerConfiguration: PostgresConfiguration
    let logger: Logger

    /// Makes a tail; nothing connects until ``run(claims:binding:onListening:onEvent:)``.
    public init(configuration: PostgresConfiguration, maximumConnections: Int = 3, logger: Logger) {
        self.database = RealtimeDatabase(configuration: configuration, maximumConnections: maximumConnections, logger: logger)
        self.listenerConfiguration = configuration
        self.logger = logger
    }

    /// Subscribes with `claims` to `binding` (a `postgres_changes` entry of `phx_join`), calls
    /// `onListening` once every later commit will be seen, then `onEvent` with each event's
    /// `data` until cancelled.
    ///
    /// Throws ``BindingProblem`` when the binding is refused (unknown or disabled table, bad filter).
    public func run(
        claims: AccessClaims, binding: RealtimeJSON,
        onListening: @Sendable ([RealtimeTableName]) -> Void = { _ in },
        onEvent: @escaping @Sendable (RealtimeJSON) -> Void
    ) async throws {
        let registry = SubscriptionRegistry()
        let catalog = RealtimeCatalog(database: database)
        let dispatcher = RealtimeDispatcher(
            registry: registry, catalog: catalog, database: database, metrics: RealtimeMetrics(), logger: logger)
        let source = SnapshotChangeSource(database: database, listenerConfiguration: listenerConfiguration, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await database.pool.run() }
            defer { group.cancelAll() }
            let bindings = try await catalog.resolve(PostgresChangesBinding(requested: binding)).get()
            guard let outbox = registry.addClient(version: .v1, capacity: 100_000) else { return }
            registry.join(
                ChannelRecord(topic: "realtime:tail", joinRef: "1", claims: claims, bindings: bindings, outbox: outbox),
                queueing: [])
            group.addTask { try await source.run(into: dispatcher) }
            // Connected means the starting snapshot is taken: every later commit will be seen.
            while !dispatcher.isSourceConnected {
                try await Task.sleep(for: .milliseconds(20))
            }
            onListening(bindings.map(\.table))
            group.addTask {
                // Ends when the tail cannot keep up (its queue overflowed) or is cancelled.
                while let work = await outbox.next(), case .frames(let frames) = work {
                    for frame in frames {
                        guard let message = try? RealtimeCodec.decode(frame.text), let data = message.payload["data"] else {
                            continue
                        }
                        onEvent(data)
                    }
                }
            }
            try await group.next()
        }
    }
}
