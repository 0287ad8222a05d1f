import Hummingbird
import ServiceLifecycle

/// One of the APIs compass-worker serves (auth, REST, the apps' `/api`, realtime): a value that
/// contributes its routes and its services; the server owns the HTTP listener around them.
///
/// ```swift
/// struct EchoAPI: CompassAPI {
///     func addRoutes(to router: Router<CompassRequestContext>) {
///         router.get("/echo") { request, _ in "hello" }
///     }
/// }
/// ```
public protocol CompassAPI: Sendable {
    /// Adds the API's routes, with their middleware, to the server's router.
    func addRoutes(to router: Router<CompassRequestContext>)
    /// The WebSocket endpoint, if the API has one (upgrades never reach the router).
    var webSocketRoute: WebSocketRoute? { get }
    /// What the API needs running before the listener opens and until it has closed (pools).
    var resources: [any Service] { get }
    /// Background work beside the listener; it stops before the listener does, so it can say goodbye to its clients.
    var services: [any Service] { get }
    /// Why the API cannot serve yet, or nil when it can (`/health` answers 503 with the first reason).
    var unreadyReason: String? { get }
    /// Brings gauges up to date just before `/metrics` renders.
    func refreshMetrics()
}

extension CompassAPI {
    public var webSocketRoute: WebSocketRoute? { nil }
    public var resources: [any Service] { [] }
    public var services: [any Service] { [] }
    public var unreadyReason: String? { nil }
    public func refreshMetrics() {}
}
