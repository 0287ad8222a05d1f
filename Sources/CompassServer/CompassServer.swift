import CompassHTTP
import CompassRealtime
import Hummingbird
import Logging
import NIOCore
import Postgres
import ServiceLifecycle
import UnixSignals

/// compass-worker's one HTTP server: `/auth/v1` (GoTrue), `/rest/v1` (PostgREST),
/// `/realtime/v1` (Realtime), the apps' own `/api`, `/health` and `/metrics`.
///
/// ```swift
/// let server = try await CompassServer(configuration: WorkerConfiguration(environment: env), logger: logger)
/// try await server.run()   // until SIGTERM or SIGINT
/// ```
public struct CompassServer: Sendable {
    /// The realtime side (its hub holds the configuration, its own pool and the token verifier).
    public let realtime: RealtimeWorker
    /// The connections `/auth/v1`, `/rest/v1` and `/api` share (the realtime fan-out keeps its own).
    public let pool: PostgresPool

    /// Builds every API from the environment's settings; nothing listens until ``run(onServerRunning:)``.
    public init(configuration: WorkerConfiguration, logger: Logger) async throws {
        try await self.init(hub: RealtimeHub(configuration: configuration, logger: logger))
    }

    /// Builds the APIs around a realtime hub that is already built (tests point it at their own database).
    public init(hub: RealtimeHub) async throws {
        self.realtime = RealtimeWorker(hub: hub)
        self.pool = PostgresPool(
            configuration: hub.postgresConfiguration, maximumConnections: hub.configuration.apiPoolSize, logger: hub.logger)
    }

    /// Serves until SIGTERM/SIGINT (or `gracefulShutdownSignals` is emptied and the task is cancelled).
    public func run(
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws {
        try await makeServiceGroup(gracefulShutdownSignals: gracefulShutdownSignals, onServerRunning: onServerRunning).run()
    }

    /// Every API's routes on one router, their background services in one group.
    public func makeServiceGroup(
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> ServiceGroup {
        let router = Router(context: CompassRequestContext.self)
        // The shared pool runs (and is shut down) in the group, after the APIs that use it stop.
        let services: [any Service] = [pool]
        // Each API adds its routes (and any background service) here.
        return realtime.makeServiceGroup(
            router: router, services: services, gracefulShutdownSignals: gracefulShutdownSignals,
            onServerRunning: onServerRunning)
    }
}
