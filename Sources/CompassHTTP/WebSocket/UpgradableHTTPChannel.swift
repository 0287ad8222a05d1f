import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket
import Postgres
import Synchronization
@_spi(WSInternal) import WSCore

/// HTTP/1.1 whose WebSocket upgrades are decided by the APIs' ``WebSocketRoute``s, with
/// refusals that carry their own status and JSON body.
///
/// Hummingbird's upgrade channel answers every refused upgrade with a bare 400; Supabase
/// Realtime's protocol wants 401 `{"error": "<why>"}` for a bad `apikey` and 403 for an
/// unknown `vsn`. This channel asks the route for the request's path, upgrades or writes the
/// refusal, and hands ordinary requests to the router.
public struct UpgradableHTTPChannel: ServerChildChannel, HTTPChannelHandler {
    enum Outcome: Sendable {
        case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, Upgrade)
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, HTTPResponse.Status, String)
    }

    /// An accepted upgrade: the handler and its route's socket settings.
    struct Upgrade: Sendable {
        let handler: WebSocketDataHandler<CompassWebSocketContext>
        let configuration: WebSocketServerConfiguration
    }

    public struct Value: ServerChildChannelValue {
        let outcome: EventLoopFuture<Outcome>
        public let channel: any Channel
        /// What the connection's statements see of it (``PostgresCancellation/caller``).
        let client: ClientConnection
    }

    public let responder: HTTPChannelHandler.Responder
    let routes: [WebSocketRoute]
    let limits: HTTPLimits
    let connections: ConnectionCounter
    /// Connections refused at either cap, logged at most once a minute each (one client refused
    /// 1,600 times in five seconds wrote as many lines).
    let refusals = (total: ThrottledEvent(), perAddress: ThrottledEvent())
    /// Peers whose connections are many clients' (not counted per address).
    let trustedProxies: TrustedProxies
    /// Large reply parts not yet sent, over every connection.
    let replies: ByteBudget?

    /// Serves `responder`'s routes and upgrades requests for `routes`' paths, within `limits`.
    public init(
        responder: @escaping HTTPChannelHandler.Responder, routes: [WebSocketRoute], limits: HTTPLimits = HTTPLimits(),
        trustedProxies: TrustedProxies = .none, replies: ByteBudget? = nil
    ) {
        self.responder = responder
        self.routes = routes
        self.limits = limits
        self.connections = ConnectionCounter()
        self.trustedProxies = trustedProxies
        self.replies = replies
    }

    /// The largest frame any route accepts (the decoder is set up before the route is known).
    var maxFrameSize: Int { routes.map(\.configuration.maxFrameSize).max() ?? 1 << 14 }

    /// The route's decision, or 404 for a path no route serves.
    func decide(_ head: HTTPRequestHead, peer: String?, logger: Logger) async -> (WebSocketUpgradeDecision, WebSocketServerConfiguration?) {
        var request = WebSocketUpgradeRequest(target: head.uri, headers: head.headers.map { ($0.name, $0.value) })
        request.countedAddress = trustedProxies.countedAddress(peer: peer, forwardedFor: head.headers["x-forwarded-for"])
        guard let route = routes.first(where: { $0.paths.contains(request.path) }) else {
            let reason = "no websocket endpoint at \(request.path.prefix(100))"
            return (.refuse(.notFound, body: JSONReply.errorBody(reason)), nil)
        }
        return (await route.decide(request, logger), route.configuration)
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let address = trustedProxies.countedAddress(peer: channel.remoteAddress?.ipAddress)
        switch connections.open(channel, limit: limits.maximumConnections, address: address, addressLimit: limits.maximumConnectionsPerAddress) {
        case .opened:
            break
        case .atLimit:
            refusals.total.occurred { count in
                logger.warning(
                    "connection refused: at the limit",
                    metadata: ["http.max_connections": "\(limits.maximumConnections)", "http.refused_since_last_report": "\(count)"])
            }
            return Self.refuseOverCapacity(channel)
        case .addressAtLimit:
            refusals.perAddress.occurred { count in
                logger.warning(
                    "connection refused: its address is at its limit",
                    metadata: [
                        "http.max_connections_per_address": "\(limits.maximumConnectionsPerAddress)",
                        "http.refused_since_last_report": "\(count)",
                    ])
            }
            return Self.refuseOverCapacity(channel)
        }
        return channel.eventLoop.makeCompletedFuture {
            // Per connection: what the upgrade decision left for the next step.
            let refusal = NIOLoopBoundBox<(HTTPResponse.Status, String)?>(nil, eventLoop: channel.eventLoop)
            let accepted = NIOLoopBoundBox<Upgrade?>(nil, eventLoop: channel.eventLoop)
            let client = ClientConnection()
            let requestGuard = NIOLoopBound(HTTPRequestGuard(limits: limits, client: client, replies: replies), eventLoop: channel.eventLoop)
            let this = self
            let upgrader = NIOTypedWebSocketServerUpgrader<Outcome>(
                maxFrameSize: maxFrameSize,
                shouldUpgrade: { channel, head in
                    let promise = channel.eventLoop.makePromise(of: HTTPHeaders?.self)
                    promise.completeWithTask {
                        switch await this.decide(head, peer: channel.remoteAddress?.ipAddress, logger: logger) {
                        case (.upgrade(let handler), let configuration?):
                            let upgrade = Upgrade(handler: handler, configuration: configuration)
                            channel.eventLoop.execute {
                                accepted.value = upgrade
                                // Out before NIO removes the HTTP decoder: bytes the client sent right
                                // behind the handshake then arrive raw, and the guard reads only HTTP
                                // parts (a raw buffer trapped it and took the worker down).
                                try? channel.pipeline.syncOperations.removeHandler(requestGuard.value)
                            }
                            return HTTPHeaders()
                        case (.upgrade, nil):
                            return nil
                        case (.refuse(let status, let body), _):
                            channel.eventLoop.execute { refusal.value = (status, body) }
                            return nil
                        }
                    }
                    return promise.futureResult
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let upgrade = accepted.value else { throw ChannelError.inappropriateOperationForState }
                        try channel.pipeline.syncOperations.addHandler(WebSocketFrameRules())
                        let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return .webSocket(asyncChannel, upgrade)
                    }
                })
            let upgrades = NIOTypedHTTPServerUpgradeConfiguration<Outcome>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerConversion())
                        try channel.pipeline.syncOperations.addHandler(HTTPConnectionStateHandler(logger: logger))
                        let asyncChannel = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        if let (status, reason) = refusal.value { return .refused(asyncChannel, status, reason) }
                        return .http(asyncChannel)
                    }
                })
            var pipeline = NIOUpgradableHTTPServerPipelineConfiguration(upgradeConfiguration: upgrades)
            pipeline.enablePipelining = false
            pipeline.enableErrorHandling = false
            pipeline.enableResponseHeaderValidation = false
            // The URL counts towards the header limits; a field may be as long as the whole block.
            pipeline.decoderConfiguration.maxHeaderFieldSize = limits.maximumHeaderBytes
            pipeline.decoderConfiguration.maxHeaderListSize = limits.maximumHeaderBytes
            let outcome = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: pipeline)
            // Right after the decoder, before the upgrade handler, so it sees every request head and decoding error.
            let upgradeHandler = try channel.pipeline.syncOperations.handler(type: NIOTypedHTTPServerUpgradeHandler<Outcome>.self)
            try channel.pipeline.syncOperations.addHandler(requestGuard.value, position: .before(upgradeHandler))
            return Value(outcome: outcome, channel: channel, client: client)
        }
    }

    public func handle(value: Value, logger: Logger) async {
        let outcome: Outcome
        do {
            outcome = try await value.outcome.get()
        } catch {
            // Malformed, refused, timed out or over capacity: whatever is left of it goes.
            logger.debug("connection ended before its first request", metadata: ["error": "\(error)"])
            try? await value.channel.close()
            return
        }
        switch outcome {
        case .http(let asyncChannel):
            // Set once per connection: every request's statements are cancelled if the client leaves.
            await PostgresCancellation.$caller.withValue(value.client) {
                // The connection's requests run on its event loop (see EventLoopTaskExecutor).
                await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
                    await handleHTTP(asyncChannel: asyncChannel, logger: logger)
                }
            }
        case .refused(let asyncChannel, let status, let body):
            await writeRefusal(asyncChannel, status: status, body: body, logger: logger)
        case .webSocket(let asyncChannel, let upgrade):
            let settings = upgrade.configuration
            do {
                _ = try await WSCore.WebSocketHandler.handle(
                    type: .server,
                    configuration: .init(
                        extensions: [], autoPing: settings.autoPing, closeTimeout: settings.closeTimeout,
                        validateUTF8: settings.validateUTF8, maxFrameSize: settings.maxFrameSize),
                    asyncChannel: asyncChannel,
                    context: CompassWebSocketContext(logger: logger, channel: value.channel),
                    handler: upgrade.handler)
            } catch {
                logger.debug("websocket ended with an error", metadata: ["error": "\(error)"])
            }
        }
    }

    /// `HTTP <status>` with the JSON `body`, then close.
    private func writeRefusal(
        _ asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, status: HTTPResponse.Status, body: String,
        logger: Logger
    ) async {
        let body = ByteBuffer(string: body)
        do {
            try await asyncChannel.executeThenClose { _, outbound in
                let head = HTTPResponse(
                    status: status,
                    headerFields: [.contentType: "application/json", .contentLength: String(body.readableBytes), .connection: "close"])
                try await outbound.write(contentsOf: [.head(head), .body(body), .end(nil)])
            }
        } catch {
            logger.trace("could not write the refusal", metadata: ["error": "\(error)"])
        }
    }
}

extension UpgradableHTTPChannel {
    /// Answers 503 on a connection past the limit and closes it; its outcome fails.
    static func refuseOverCapacity(_ channel: any Channel) -> EventLoopFuture<Value> {
        let reply = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n"
        channel.writeAndFlush(ByteBuffer(string: reply)).whenComplete { _ in channel.close(promise: nil) }
        let outcome = channel.eventLoop.makeFailedFuture(ChannelError.inappropriateOperationForState) as EventLoopFuture<Outcome>
        return channel.eventLoop.makeSucceededFuture(Value(outcome: outcome, channel: channel, client: ClientConnection()))
    }
}
