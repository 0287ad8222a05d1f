import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// An API's WebSocket endpoint: the paths it answers, the socket settings, and the decision
/// per upgrade request (upgrade into a session, or refuse with a status and a JSON body).
///
/// ```swift
/// WebSocketRoute(paths: ["/realtime/v1/websocket"], configuration: .init()) { request, logger in
///     guard request.query["apikey"] != nil else { return .refuse(.unauthorized, body: #"{"error":"apikey is missing"}"#) }
///     return .upgrade { inbound, outbound, context in … }
/// }
/// ```
public struct WebSocketRoute: Sendable {
    /// The paths (without query) this route serves.
    public var paths: Set<String>
    /// Frame size limit, pings and close timeout for its sockets.
    public var configuration: WebSocketServerConfiguration
    /// Decides one upgrade request.
    public var decide: @Sendable (WebSocketUpgradeRequest, Logger) async -> WebSocketUpgradeDecision

    public init(
        paths: Set<String>, configuration: WebSocketServerConfiguration,
        decide: @escaping @Sendable (WebSocketUpgradeRequest, Logger) async -> WebSocketUpgradeDecision
    ) {
        self.paths = paths
        self.configuration = configuration
        self.decide = decide
    }
}

extension WebSocketRoute {
    /// Why an upgrade reached the router: it was not the first request of its connection.
    static let lateUpgradeReason =
        "a WebSocket upgrade must be the first request on its connection; a proxy in front reused a pooled "
        + "connection for it (open a new connection for upgrades, e.g. haproxy's `http-reuse never` on the WebSocket backend)"

    /// Answers the route's paths on the router: only upgrades that are not their connection's
    /// first request get there (NIO decides upgrades on the first request alone), and a bare 404
    /// for them hid the cause. 400 with the reason, and `Connection: close` for the proxy's pool.
    /// A plain request (no `Upgrade: websocket`) is told what the path takes instead.
    public func addLateUpgradeRefusal(to router: Router<CompassRequestContext>) {
        for path in paths {
            router.get(RouterPath(path)) { request, _ in
                let upgrading = request.headers[values: .upgrade].contains { $0.lowercased().contains("websocket") }
                let reason = upgrading ? Self.lateUpgradeReason : Self.notAnUpgradeReason
                return JSONReply.text(status: .badRequest, JSONReply.errorBody(reason), headers: [.connection: "close"])
            }
        }
    }

    /// Why a plain request to a WebSocket path is refused.
    static let notAnUpgradeReason =
        "this path takes WebSocket connections only: a GET with `Connection: Upgrade` and `Upgrade: websocket`"
}

/// What an upgrade decision sees of the request: the target split into path and query, and the headers.
public struct WebSocketUpgradeRequest: Sendable {
    /// The request target as sent (`/realtime/v1/websocket?apikey=…&vsn=1.0.0`).
    public var target: String
    /// The path, without the query.
    public var path: String
    /// The query parameters, percent-decoded; the first value of a repeated key wins.
    public var query: [String: String]
    /// The request's headers, by lower-cased name (the first value of a repeated one).
    public var headers: [String: String]
    /// The address per-address limits count the client against (see
    /// ``TrustedProxies/countedAddress(peer:forwardedFor:)``); nil when it is not counted.
    public var countedAddress: String?

    /// Splits `target` and indexes `headers`.
    public init(target: String, headers: [(name: String, value: String)]) {
        self.target = target
        (self.path, self.query) = Self.splitPathAndQuery(target)
        var index: [String: String] = [:]
        for (name, value) in headers where index[name.lowercased()] == nil { index[name.lowercased()] = value }
        self.headers = index
    }

    /// The first value of header `name` (any case).
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// `/a/b?x=1&y=%20` → (`/a/b`, ["x": "1", "y": " "]); the first value of a repeated key wins.
    static func splitPathAndQuery(_ target: String) -> (String, [String: String]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, [:]) }
        var query: [String: String] = [:]
        for pair in target[target.index(after: mark)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let value = parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? String(parts[1])) : ""
            if query[key] == nil { query[key] = value }
        }
        return (String(target[..<mark]), query)
    }
}

/// The answer to an upgrade request.
public enum WebSocketUpgradeDecision: Sendable {
    /// Upgrade and run `handler` on the socket.
    case upgrade(WebSocketDataHandler<CompassWebSocketContext>)
    /// Answer `status` with the JSON `body`, then close.
    case refuse(HTTPResponse.Status, body: String)
}

/// What a WebSocket handler gets: a logger and the TCP channel (to drop it if need be).
public struct CompassWebSocketContext: WebSocketContext {
    public let logger: Logger
    /// The connection's channel.
    public let channel: any Channel
}
