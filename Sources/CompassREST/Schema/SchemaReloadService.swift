import Logging
import Postgres
import ServiceLifecycle

/// Reloads the schema cache on `NOTIFY pgrst, 'reload schema'` (or an empty payload), as
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
        try await cancelWhenGracefulShutdown {
            for try await event in listener {
                switch event {
                case .listening(let gapPossible):
                    if gapPossible {
                        await reload()
                    } else {
                        // A change made between that load and this LISTEN notified no one yet.
                        await reload(onlyIfLoaded: true)
                    }
                case .notification(let notification):
                    let payload = notification.payload.trimmingSpaces
                    if payload.isEmpty || payload == "reload schema" { await reload() }
                }
            }
        }
    }

    private func reload(onlyIfLoaded: Bool = false) async {
        do {
            if onlyIfLoaded {
                try await store.reloadIfLoaded()
            } else {
                try await store.reload()
            }
        } catch {
            logger.error("schema cache reload failed", metadata: ["pg.error": "\(error)"])
        }
    }
}
