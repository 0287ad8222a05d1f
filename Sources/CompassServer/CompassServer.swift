import CompassAppAPI
import CompassAuth
import CompassHTTP
import CompassREST
import CompassRealtime
import Foundation
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
/// let server = try await CompassServer(configuration: CompassServerConfiguration(environment: env), logger: logger)
/// try await server.run()   // until SIGTERM or SIGINT
/// ```
public struct CompassServer: Sendable {
    /// The realtime side (its hub holds the configuration, its own pool and the token verifier).
    public let realtime: RealtimeWorker
    /// The connections `/auth/v1`, `/rest/v1` and `/api` share (the realtime fan-out keeps its own).
    public let pool: PostgresPool
    /// `/rest/v1`: PostgREST's API.
    public let rest: RESTAPI
    /// The apps' own endpoints under `/api`.
    public let appAPI: AppAPI
    /// `/auth/v1`: Supabase Auth (GoTrue).
    public let auth: AuthAPI

    /// Builds every API from its settings; nothing listens until ``run(onServerRunning:)``.
    public init(configuration: CompassServerConfiguration, logger: Logger) async throws {
        try await self.init(
            hub: RealtimeHub(configuration: configuration.worker, logger: logger),
            rest: configuration.rest, appAPI: configuration.appAPI, auth: configuration.auth)
    }

    /// Builds the APIs around a realtime hub that is already built (tests point it at their own database).
    public init(
        hub: RealtimeHub, rest: RESTConfiguration = RESTConfiguration(), appAPI: AppAPIConfiguration = AppAPIConfiguration(),
        auth: AuthConfiguration = AuthConfiguration(), now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        self.realtime = RealtimeWorker(hub: hub)
        self.pool = PostgresPool(
            configuration: hub.postgresConfiguration, maximumConnections: hub.configuration.apiPoolSize, logger: hub.logger)
        self.rest = RESTAPI(
            pool: pool, verifier: hub.verifier, configuration: rest, listenerConfiguration: hub.listenerConfiguration,
            logger: hub.logger)
        self.appAPI = AppAPI(pool: pool, verifier: hub.verifier, configuration: appAPI, logger: hub.logger)
        self.auth = try await AuthAPI(
            pool: pool, secret: hub.configuration.jwtSecret, verifier: hub.verifier, configuration: auth, logger: hub.logger,
            now: now)
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
        var services: [any Service] = [pool]
        // Each API adds its routes (and any background service) here.
        auth.addRoutes(to: router)
        rest.addRoutes(to: router)
        services.append(rest.reloadService)
        appAPI.addRoutes(to: router)
        return realtime.makeServiceGroup(
            router: router, services: services, gracefulShutdownSignals: gracefulShutdownSignals,
            onServerRunning: onServerRunning)
    }
}
