import CompassHTTP
import Hummingbird
import HummingbirdWebSocket
import ServiceLifecycle

/// `/realtime/v1`: Supabase Realtime's `postgres_changes` over WebSocket, as one of the server's APIs.
///
/// ```swift
/// let realtime = RealtimeAPI(configuration: settings.realtime, context: context)
/// // the server upgrades realtime.webSocketRoute's paths and runs realtime.resources and realtime.services
/// ```
/// It knows its WebSocket route and its services, nothing of the HTTP server around it.
public struct RealtimeAPI: CompassAPI {
    /// The shared parts (registry, fan-out, its own pool).
    public let hub: RealtimeHub
    private let source: (any RealtimeChangeSource)?

    /// The API on the server's context; `source` replaces the stored-changes source (tests).
    public init(configuration: RealtimeConfiguration, context: ServerContext, source: (any RealtimeChangeSource)? = nil) {
        self.hub = RealtimeHub(configuration: configuration, context: context)
        self.source = source
    }

    /// The paths that upgrade to the channel protocol (the gateway's and the server's own).
    public static let webSocketPaths: Set<String> = ["/realtime/v1/websocket", "/socket/websocket"]

    public var webSocketRoute: WebSocketRoute? {
        let hub = self.hub
        // A frame over the message limit is refused from its header (close 1009, as the
        // reference's Cowboy does) instead of being buffered whole: a 16 MiB frame limit let
        // one client grow the heap by tens of megabytes that the allocator kept afterwards.
        // Outbound messages are written as single frames whatever this says.
        // No server pings: as in the reference, a client proves it is alive with heartbeats and
        // the sweeper ends one silent for the idle timeout. A ping loop added a 30 s timer per
        // connection that outlived the connection and kept its memory resident that long.
        return WebSocketRoute(
            paths: Self.webSocketPaths,
            configuration: WebSocketServerConfiguration(
                maxFrameSize: hub.configuration.maximumMessageBytes, autoPing: .disabled,
                closeTimeout: .seconds(5))
        ) { request, logger in
            await Self.decide(request, hub: hub, logger: logger)
        }
    }

    /// No HTTP routes: everything realtime happens on the socket.
    public func addRoutes(to router: Router<CompassRequestContext>) {}

    /// The fan-out's pool: open before the listener, closed after it.
    public var resources: [any Service] { [hub.database.pool] }

    /// The change source, pruner and sweeper; on shutdown it closes every socket with 1001 first.
    public var services: [any Service] { [RealtimeService(hub: hub, source: source)] }

    public var unreadyReason: String? {
        hub.dispatcher.hasSourceConnected ? nil : "LISTEN connection not up yet"
    }

    /// Whether the LISTEN connection is up right now (`/ready`).
    public var isListening: Bool { hub.dispatcher.isSourceConnected }

    public func refreshMetrics() {
        hub.metrics.refreshGauges(counts: hub.registry.counts)
    }
}
