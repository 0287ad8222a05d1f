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

    /// The group: `services` (other APIs' background work) first, then the HTTP application
    /// serving `router`'s routes beside the realtime ones, then the realtime service, so the
    /// service (and with it every client socket) is shut down first.
    public func makeServiceGroup(
        router: Router<CompassRequestContext> = Router(context: CompassRequestContext.self),
        services: [any Service] = [],
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> ServiceGroup {
        let application = RealtimeServer(hub: hub).makeApplication(router: router, onServerRunning: onServerRunning)
        return ServiceGroup(
            configuration: .init(
                services: services + [application, RealtimeService(hub: hub)],
                gracefulShutdownSignals: gracefulShutdownSignals,
                logger: hub.logger))
    }
}
