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
@_spi(WSInternal) import WSCore

/// HTTP/1.1 with a WebSocket upgrade whose refusals carry their own status and JSON body.
///
/// Hummingbird's upgrade channel answers every refused upgrade with a bare 400; the
/// protocol wants 401 `{"error": "<why>"}` for a bad `apikey` and 403 for an unknown
/// `vsn`. This channel asks `decide` about each upgrade request, upgrades or writes
/// the refusal, and hands ordinary requests to the router.
struct RealtimeUpgradeChannel: ServerChildChannel, HTTPChannelHandler {
    /// Serves an upgraded connection.
    typealias WebSocketHandler = @Sendable (NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, Logger) async -> Void

    /// What to do with an upgrade request.
    enum Decision: Sendable {
        case upgrade(WebSocketDataHandler<RealtimeWebSocketContext>)
        case refuse(HTTPResponse.Status, reason: String)
    }

    enum Outcome: Sendable {
        case webSocket(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>, WebSocketDataHandler<RealtimeWebSocketContext>)
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, HTTPResponse.Status, String)
    }

    struct Value: ServerChildChannelValue {
        let outcome: EventLoopFuture<Outcome>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let webSocket: WebSocketServerConfiguration
    let decide: @Sendable (HTTPRequestHead, any Channel, Logger) async -> Decision

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Per connection: what the upgrade decision left for the next step.
            let refusal = NIOLoopBoundBox<(HTTPResponse.Status, String)?>(nil, eventLoop: channel.eventLoop)
            let accepted = NIOLoopBoundBox<WebSocketDataHandler<RealtimeWebSocketContext>?>(nil, eventLoop: channel.eventLoop)
            let decide = self.decide
            let upgrader = NIOTypedWebSocketServerUpgrader<Outcome>(
                maxFrameSize: webSocket.maxFrameSize,
                shouldUpgrade: { channel, head in
                    let promise = channel.eventLoop.makePromise(of: HTTPHeaders?.self)
                    promise.completeWithTask {
                        switch await decide(head, channel, logger) {
                        case .upgrade(let handler):
                            channel.eventLoop.execute { accepted.value = handler }
                            return HTTPHeaders()
                        case .refuse(let status, let reason):
                            channel.eventLoop.execute { refusal.value = (status, reason) }
                            return nil
                        }
                    }
                    return promise.futureResult
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let handler = accepted.value else { throw ChannelError.inappropriateOperationForState }
                        let asyncChannel = try NIOAsyncChannel<WebSocketFrame, WebSocketFrame>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return .webSocket(asyncChannel, handler)
                    }
                })
            let upgrades = NIOTypedHTTPServerUpgradeConfiguration<Outcome>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
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
            let outcome = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: pipeline)
            return Value(outcome: outcome, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        let outcome: Outcome
        do {
            outcome = try await value.outcome.get()
        } catch {
            logger.debug("connection ended before its first request", metadata: ["realtime.error": "\(error)"])
            return
        }
        switch outcome {
        case .http(let asyncChannel):
            await handleHTTP(asyncChannel: asyncChannel, logger: logger)
        case .refused(let asyncChannel, let status, let reason):
            await writeRefusal(asyncChannel, status: status, reason: reason, logger: logger)
        case .webSocket(let asyncChannel, let handler):
            do {
                _ = try await WSCore.WebSocketHandler.handle(
                    type: .server,
                    configuration: .init(
                        extensions: [], autoPing: webSocket.autoPing, closeTimeout: webSocket.closeTimeout,
                        validateUTF8: webSocket.validateUTF8, maxFrameSize: webSocket.maxFrameSize),
                    asyncChannel: asyncChannel,
                    context: RealtimeWebSocketContext(logger: logger, channel: value.channel),
                    handler: handler)
            } catch {
                logger.debug("websocket ended with an error", metadata: ["realtime.error": "\(error)"])
            }
        }
    }

    /// `HTTP <status>` with `{"error": reason}`, then close.
    private func writeRefusal(
        _ asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>, status: HTTPResponse.Status, reason: String,
        logger: Logger
    ) async {
        let body = ByteBuffer(string: #"{"error":"# + RealtimeJSON.quoted(reason) + "}")
        do {
            try await asyncChannel.executeThenClose { _, outbound in
                let head = HTTPResponse(
                    status: status,
                    headerFields: [.contentType: "application/json", .contentLength: String(body.readableBytes), .connection: "close"])
                try await outbound.write(contentsOf: [.head(head), .body(body), .end(nil)])
            }
        } catch {
            logger.trace("could not write the refusal", metadata: ["realtime.error": "\(error)"])
        }
    }
}

/// What a realtime WebSocket handler gets: a logger and the TCP channel (to drop it if need be).
struct RealtimeWebSocketContext: WebSocketContext {
    let logger: Logger
    let channel: any Channel
}
