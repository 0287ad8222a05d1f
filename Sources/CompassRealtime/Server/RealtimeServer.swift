import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

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

    /// A Hummingbird application serving the protocol; `onServerRunning` learns the bound port.
    public func makeApplication(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
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
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(configuration: .init(ws: webSocket)) { request, channel, logger in
                switch Self.admission(for: request, hub: hub) {
                case .refused(let status, let reason):
                    logger.debug("websocket upgrade refused", metadata: ["http.status": "\(status.code)", "realtime.reason": "\(reason)"])
                    return .dontUpgrade
                case .pendingTokenCheck(let version, let token):
                    do throws(RealtimeTokenError) {
                        _ = try await hub.verifier.verify(token)
                    } catch {
                        logger.debug("websocket upgrade refused", metadata: ["http.status": "401", "realtime.reason": "\(error.reason)"])
                        return .dontUpgrade
                    }
                    return .upgrade([:]) { inbound, outbound, context in
                        guard let outbox = hub.registry.addClient(version: version, capacity: configuration.outboundBufferFrames)
                        else {
                            try await outbound.close(.goingAway, reason: "Server is shutting down")
                            return
                        }
                        let session = RealtimeSession(
                            hub: hub, outbox: outbox, connectionToken: token, channel: channel, logger: context.logger)
                        await session.run(inbound: inbound, outbound: outbound)
                    }
                }
            },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "compass-worker"),
            onServerRunning: onServerRunning,
            logger: hub.logger)
    }

    /// What an upgrade request gets before its token is checked.
    enum Admission {
        case refused(HTTPResponse.Status, String)
        case pendingTokenCheck(RealtimeProtocolVersion, String)
    }

    /// Checks path, `vsn` and the presence of `apikey` (query, `apikey` or `x-api-key` header).
    static func admission(for request: HTTPRequest, hub: RealtimeHub) -> Admission {
        let (path, query) = splitPathAndQuery(request.path ?? "")
        guard webSocketPaths.contains(path) else { return .refused(.notFound, "not a websocket path") }
        guard let version = RealtimeProtocolVersion(vsn: query["vsn"]) else {
            return .refused(.forbidden, "unsupported vsn")
        }
        let token =
            query["apikey"] ?? request.headerFields[HTTPField.Name("apikey")!]
            ?? request.headerFields[HTTPField.Name("x-api-key")!]
        guard let token, !token.isEmpty else { return .refused(.unauthorized, "missing apikey") }
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
