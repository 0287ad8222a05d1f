import CompassAppAPI
import CompassAuth
import CompassHTTP
import CompassREST
import CompassRealtime
import CompassTokens
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

/// compass-worker's composition root: one HTTP server for `/auth/v1` (GoTrue), `/rest/v1`
/// (PostgREST), `/realtime/v1` (Realtime) and the apps' own `/api`, plus `/health`, `/ready` and `/metrics`.
///
/// ```swift
/// let server = try await CompassServer(configuration: ServerConfiguration(environment: env), logger: logger)
/// try await server.run()   // until SIGTERM or SIGINT
/// ```
/// It builds the shared ``ServerContext`` once, asks each API for its routes and services, and
/// runs them with the listener in one `ServiceGroup`.
public struct CompassServer: Sendable {
    /// The settings it was built from.
    public let configuration: ServerConfiguration
    /// What every API shares (pool, token verifier, metrics, logger, clock).
    public let context: ServerContext
    /// `/auth/v1`: Supabase Auth (GoTrue).
    public let auth: AuthAPI
    /// `/rest/v1`: PostgREST's API.
    public let rest: RESTAPI
    /// The apps' own endpoints under `/api`.
    public let appAPI: AppAPI
    /// `/realtime/v1`: Supabase Realtime.
    public let realtime: RealtimeAPI
    /// `/ready`'s checks, with a connection of their own.
    let readiness: ReadinessProbe
    /// Every HTTP request's count and time, by API and route template.
    let httpMetrics: HTTPMetrics
    /// The pools' gauges, read at each scrape.
    let poolMetrics: PoolMetrics

    /// Every API, in the order their routes and services are added.
    public var apis: [any CompassAPI] { [auth, rest, appAPI, realtime] }

    /// Builds the context and every API; nothing listens or connects until ``run(gracefulShutdownSignals:onServerRunning:)``.
    /// `now` is the clock of every API (tests move it).
    public init(
        configuration: ServerConfiguration, logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        var signingKeys: SigningKeySet?
        if let keys = configuration.jwtSigningKeys { signingKeys = try await SigningKeySet(jwksJSON: keys) }
        let context = try await ServerContext(
            postgres: configuration.database, listener: configuration.listener, jwtSecret: configuration.jwtSecret,
            signingKeys: signingKeys,
            poolSize: configuration.poolSize, poolCheckoutTimeout: configuration.poolCheckoutTimeout,
            maximumBufferedBodyBytes: configuration.http.maximumBufferedBodyBytes,
            maximumUnsentReplyBytes: configuration.http.maximumUnsentReplyBytes, logger: logger, now: now)
        self.configuration = configuration
        self.context = context
        self.auth = try await AuthAPI(context: context, secret: configuration.jwtSecret, configuration: configuration.auth)
        self.rest = RESTAPI(context: context, configuration: configuration.rest)
        self.appAPI = AppAPI(context: context, configuration: configuration.appAPI)
        let realtime = RealtimeAPI(configuration: configuration.realtime, context: context)
        self.realtime = realtime
        self.readiness = ReadinessProbe(
            configuration: configuration.database, expectedSchemaVersion: configuration.expectedSchemaVersion,
            logger: logger, isListening: { realtime.isListening })
        self.httpMetrics = HTTPMetrics(registry: context.metrics)
        self.poolMetrics = PoolMetrics(
            pools: [("api", context.pool), ("auth", auth.pool), ("realtime", realtime.hub.database.pool), ("ready", readiness.pool)],
            registry: context.metrics)
    }

    /// Serves until SIGTERM/SIGINT (or, with no signals, until the task is cancelled).
    public func run(
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) async throws {
        try await makeServiceGroup(gracefulShutdownSignals: gracefulShutdownSignals, onServerRunning: onServerRunning).run()
    }

    /// The pools, the listener and every API's services in one group. Services stop in reverse
    /// order: the APIs' services first (realtime closes its sockets with 1001), then the
    /// listener, then the pools.
    public func makeServiceGroup(
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> ServiceGroup {
        let apis = self.apis
        let application = makeApplication(onServerRunning: onServerRunning)
        let services: [any Service] =
            [context.pool, readiness.pool] + apis.flatMap(\.resources) + [application] + apis.flatMap(\.services)
        return ServiceGroup(
            configuration: .init(
                services: services, gracefulShutdownSignals: gracefulShutdownSignals, logger: context.logger))
    }

    /// The HTTP application: every API's routes and WebSocket routes, `/health`, `/ready` and `/metrics`.
    func makeApplication(onServerRunning: @escaping @Sendable (any Channel) async -> Void) -> some ApplicationProtocol {
        let apis = self.apis
        let router = Router(context: CompassRequestContext.self)
        // First, so every route and the not-found reply get an id and are counted.
        router.add(middleware: RequestObservationMiddleware(metrics: httpMetrics))
        // Before any API's checks: a browser's preflight carries no API key.
        router.add(middleware: CORSMiddleware(policy: configuration.cors))
        router.add(middleware: UnroutedRequestMiddleware(apiRoutes: appAPI.routes.map { ($0.method, $0.path) }))
        if !configuration.trustedProxies.isEmpty {
            router.add(middleware: ClientAddressMiddleware(trusting: configuration.trustedProxies))
        }
        addProbes(to: router, apis: apis)
        for api in apis { api.addRoutes(to: router) }
        let webSocketRoutes = apis.compactMap(\.webSocketRoute)
        for route in webSocketRoutes { route.addLateUpgradeRefusal(to: router) }
        let limits = configuration.http
        let proxies = configuration.trustedProxies
        let replies = context.replies
        let server = HTTPServerBuilder { responder in
            UpgradableHTTPChannel(responder: responder, routes: webSocketRoutes, limits: limits, trustedProxies: proxies, replies: replies)
        }
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "compass-worker"),
            onServerRunning: onServerRunning,
            logger: context.logger)
    }
}
