import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// The worker's HTTP side: `/realtime/v1/websocket`, `/health` and `/metrics`.
///
/// ```swift
/// let app = RealtimeServer(hub: hub).makeApplication()
/// ```
public struct RealtimeServer: Sendable {
    /// The shared parts.
    public let hub: RealtimeHub
    /// Paths that upgrade to the channel protocol (the gateway's and the server's own).
    public static let webSocketPaths: Set<String> = ["/realtime/v1/websocket", "/socket/websocket"]

    public init(hub: RealtimeHub) {
        self.hub = hub
    }

    /// A Hummingbird application serving the protocol beside the routes already on `router`
    /// (the other APIs); `onServerRunning` learns the bound port.
    public func makeApplication(
        router: Router<CompassRequestContext> = Router(context: CompassRequestContext.self),
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let hub = self.hub
        router.get("/health") { _, _ -> Response in
            let up = hub.dispatcher.isSourceConnected
            let body = up ? #"{"status":"ok"}"# : #"{"status":"starting","reason":"LISTEN connection not up yet"}"#
            return Response(
                status: up ? .ok : .serviceUnavailable, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
        }
        router.get("/metrics") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: hub.renderMetrics())))
        }
        let webSocket = WebSocketServerConfiguration(
            maxFrameSize: 16 << 20, autoPing: .enabled(timePeriod: .seconds(30)), closeTimeout: .seconds(5))
        let configuration = hub.configuration
        let server = HTTPServerBuilder { responder in
            RealtimeUpgradeChannel(responder: responder, webSocket: webSocket) { head, _, logger in
                await Self.decide(
                    target: head.uri, header: { head.headers[$0].first }, hub: hub, logger: logger)
            }
        }
        return Application(
            router: router,
            server: server,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "compass-worker"),
            onServerRunning: onServerRunning,
            logger: hub.logger)
    }

    /// Upgrades a valid request into a session; refuses others with the protocol's status.
    static func decide(
        target: String, header: (String) -> String?, hub: RealtimeHub, logger: Logger
    ) async -> RealtimeUpgradeChannel.Decision {
        let version: RealtimeProtocolVersion
        let token: String
        switch admission(target: target, header: header) {
        case .refused(let status, let reason):
            logger.debug("websocket upgrade refused", metadata: ["http.status": "\(status.code)", "realtime.reason": "\(reason)"])
            return .refuse(status, reason: reason)
        case .pendingTokenCheck(let requested, let presented):
            version = requested
            token = presented
        }
        do throws(AccessTokenError) {
            _ = try await hub.verifier.verify(token)
        } catch {
            logger.debug("websocket upgrade refused", metadata: ["http.status": "401", "realtime.reason": "\(error.reason)"])
            return .refuse(.unauthorized, reason: error.reason)
        }
        let capacity = hub.configuration.outboundBufferFrames
        return .upgrade { inbound, outbound, context in
            guard let outbox = hub.registry.addClient(version: version, capacity: capacity) else {
                try await outbound.close(.goingAway, reason: "Server is shutting down")
                return
            }
            let session = RealtimeSession(
                hub: hub, outbox: outbox, connectionToken: token, channel: context.channel, logger: context.logger)
            await session.run(inbound: inbound, outbound: outbound)
        }
    }

    /// What an upgrade request gets before its token is checked.
    enum Admission {
        case refused(HTTPResponse.Status, String)
        case pendingTokenCheck(RealtimeProtocolVersion, String)
    }

    /// Checks path, `vsn` and the presence of `apikey` (query, `apikey` or `x-api-key` header).
    static func admission(target: String, header: (String) -> String?) -> Admission {
        let (path, query) = splitPathAndQuery(target)
        guard webSocketPaths.contains(path) else { return .refused(.notFound, "no websocket endpoint at \(path.prefix(100))") }
        guard let version = RealtimeProtocolVersion(vsn: query["vsn"]) else {
            return .refused(.forbidden, "unsupported protocol version (vsn): use 1.0.0 or 2.0.0")
        }
        let token = query["apikey"] ?? header("apikey") ?? header("x-api-key")
        guard let token, !token.isEmpty else { return .refused(.unauthorized, "apikey is missing") }
        return .pendingTokenCheck(version, token)
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
