import Logging
import Postgres
import ServiceLifecycle

/// Reloads the schema cache on `NOTIFY pgrst, 'reload schema'` (or `'reload config'`, or an empty payload), as
/// PostgREST does, on a LISTEN connection of its own; after a reconnect it reloads anyway,
/// since a notification may have been missed, and so it does on its first LISTEN when a
/// request loaded the cache before it.
public struct SchemaReloadService: Service {
    /// PostgREST's channel.
    public static let channel = "pgrst"

    let store: SchemaCacheStore
    let listenerConfiguration: PostgresConfiguration
    let logger: Logger

    /// A service that keeps `store` in step with the catalog.
    public init(store: SchemaCacheStore, listenerConfiguration: PostgresConfiguration, logger: Logger) {
        self.store = store
        self.listenerConfiguration = listenerConfiguration
        self.logger = logger
    }

    public func run() async throws {
        let listener = PostgresListener(configuration: listenerConfiguration, channels: [Self.channel], logger: logger)
        // Notifications that arrive while a reload runs make one more reload, not one each: a
        // migration announcing fifty changes at once cost fifty full catalog reads.
        let (requests, request) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        try await cancelWhenGracefulShutdown {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in requests { await reloadRetrying() }
                }
                group.addTask {
                    defer { request.finish() }
                    for try await event in listener {
                        switch event {
                        case .listening(let gapPossible):
                            if gapPossible {
                                request.yield()
                            } else {
                                // A change made between that load and this LISTEN notified no one yet.
                                await reloadRetrying(onlyIfLoaded: true)
                            }
                        case .notification(let notification):
                            let payload = notification.payload.trimmingSpaces
                            // The cache holds the in-database configuration too (`pgrst.db_pre_request`).
                            if payload.isEmpty || payload == "reload schema" || payload == "reload config" { request.yield() }
                        }
                    }
                }
                defer { group.cancelAll() }
                try await group.next()
            }
        }
    }

    /// Reloads, trying again a few times when a load fails: a table dropped while the catalog
    /// is read can fail one (its privileges read as NULL), and a table created and announced
    /// meanwhile would stay unknown until the next notification.
    private func reloadRetrying(onlyIfLoaded: Bool = false) async {
        var delay = Duration.milliseconds(100)
        for attempt in 1...Self.attempts {
            do {
                if onlyIfLoaded {
                    try await store.reloadIfLoaded()
                } else {
                    try await store.reload()
                }
                return
            } catch {
                let retrying = attempt < Self.attempts
                logger.error(
                    "schema cache reload failed\(retrying ? "; retrying" : "")",
                    metadata: ["pg.error": "\(error)", "rest.attempt": "\(attempt)"])
                guard retrying, (try? await Task.sleep(for: delay)) != nil else { return }
                delay *= 2
            }
        }
    }

    /// Loads tried per reload (100 ms, then 200, 400 and 800 ms apart).
    static let attempts = 5
}
