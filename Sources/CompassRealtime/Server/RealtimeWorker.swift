import CompassHTTP
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// The whole worker: HTTP application plus realtime service in one `ServiceGroup`.
///
/// ```swift
/// let worker = try await RealtimeWorker(configuration: WorkerConfiguration(environment: env), logger: logger)
/// try await worker.run()   // until SIGTERM or SIGINT
/// ```
public struct RealtimeWorker: Sendable {
    /// The shared parts.
    public let hub: RealtimeHub

    /// Builds the worker; nothing listens until ``run(onServerRunning:)``.
    public init(configuration: WorkerConfiguration, logger: Logger) async throws {
        self.hub = try await RealtimeHub(configuration: configuration, logger: logger)
    }

    /// Wraps hub that is already built (tests and benchmarks point it at their own database).
    public init(hub: RealtimeHub) {
        self.hub = hub
    }

    /// Serves until SIGTERM/SIGINT (or `gracefulShutdownSignals` is emptied and the task is cancelled).
    public func run(
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws {
        try await makeServiceGroup(gracefulShutdownSignals: gracefulShutdownSignals, onServerRunning: onServerRunning).run()
    }

    /// The group: the realtime pool, `services` (other APIs' pools and background work), the
    /// HTTP application serving `router`'s routes beside the realtime ones, then the realtime
    /// service. Services stop in reverse order: every client socket closes first, the pools last.
    public func makeServiceGroup(
        router: Router<CompassRequestContext> = Router(context: CompassRequestContext.self),
        services: [any Service] = [],
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> ServiceGroup {
        let application = RealtimeServer(hub: hub).makeApplication(router: router, onServerRunning: onServerRunning)
        return ServiceGroup(
            configuration: .init(
                services: [hub.database.pool] + services + [application, RealtimeService(hub: hub)],
                gracefulShutdownSignals: gracefulShutdownSignals,
                logger: hub.logger))
    }
}
