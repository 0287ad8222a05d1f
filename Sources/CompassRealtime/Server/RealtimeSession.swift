import Foundation
import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import Logging

/// One WebSocket connection speaking the channel protocol.
///
/// The reader task turns client frames into replies and registry changes; a
/// ``SocketFrameWriter`` drains the connection's ``ClientOutbox`` into the socket on its
/// event loop. Change events reach the outbox from the fan-out, never by waiting on this
/// socket; when the outbox asks to close (slow consumer, shutdown, idle), the closing task
/// says why on every channel and closes the socket with a reason.
struct RealtimeSession: Sendable {
    let hub: RealtimeHub
    let outbox: ClientOutbox
    /// The token the connection was opened with (`apikey`), used when a join names none.
    let connectionToken: String
    /// The TCP connection, closed outright when a client will not even take its close frames.
    let channel: any Channel
    let logger: Logger

    private var registry: SubscriptionRegistry { hub.registry }
    private var clientID: Int { outbox.clientID }

    /// Serves the connection until either side ends it.
    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let writer = SocketFrameWriter(
            channel: channel, outbox: outbox, metrics: hub.metrics, flusher: hub.flushers.flusher(for: channel.eventLoop))
        do {
            try await writer.install()
        } catch {
            logger.debug("socket closed before the session started", metadata: ["realtime.error": "\(error)"])
            registry.removeClient(clientID)
            return
        }
        outbox.attach(writer)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await closeWhenAsked(outbound, writer: writer) }
            group.addTask { await readLoop(inbound) }
            await group.next()
            group.cancelAll()
        }
        registry.removeClient(clientID)
        outbox.detach()
    }

    // MARK: - Writing

    /// Frames go out through `writer` as they are queued; this waits for the outbox to ask for
    /// a close, writes what is still queued and the close, and gives the client a grace period
    /// to take it: a client whose socket is full cannot take even its close frame, so after
    /// the grace period its TCP connection is dropped.
    private func closeWhenAsked(_ outbound: WebSocketOutboundWriter, writer: SocketFrameWriter) async {
        guard let reason = await outbox.closeRequested() else { return }
        let grace: Duration = reason == .shutdown ? hub.configuration.shutdownGracePeriod : .seconds(10)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await writer.drainBeforeClose()
                    try await close(outbound, because: reason)
                } catch {
                    logger.debug("write failed; connection ends", metadata: ["realtime.error": "\(error)"])
                }
            }
            group.addTask {
                guard (try? await Task.sleep(for: grace)) != nil else { return }
                logger.notice(
                    "client did not take its close frame; dropping the connection", metadata: ["realtime.client": "\(clientID)"])
                channel.close(promise: nil)
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// Tells every channel why it ends (`system` error, then `phx_close`), then closes the socket.
    ///
    /// Shutdown is the exception: the channels are not ended, only the socket (1001, going away),
    /// as when the reference's node stops. A `phx_close` would tell the clients the channel is
    /// over for good: they reconnect but do not rejoin, and a rolling restart would leave every
    /// subscriber deaf. After a bare socket close the official clients reconnect through the
    /// load balancer and rejoin their channels on another worker.
    private func close(_ outbound: WebSocketOutboundWriter, because reason: ClientOutbox.CloseReason) async throws {
        let message: String
        let code: WebSocketErrorCode
        switch reason {
        case .slowConsumer:
            // A close reason holds at most 123 bytes.
            message = "Client is too slow: its waiting messages passed \(outbox.capacity), \(outbox.maximumBytes) bytes or the server's total"
            code = .policyViolation
            logger.notice("closing a slow client", metadata: ["realtime.client": "\(clientID)"])
        case .shutdown:
            message = "Server is shutting down"
            code = .goingAway
        case .idle:
            message = "No heartbeat received within \(hub.configuration.idleTimeout)"
            code = .normalClosure
        }
        let channels = registry.removeClient(clientID)
        for channel in channels where reason != .shutdown {
            let notice = RealtimeMessage.system(
                topic: channel.topic, joinRef: channel.joinRef, extension: RealtimeSystemExtension.system, status: .error,
                message: message)
            try await outbound.write(.text(RealtimeCodec.encode(notice, version: outbox.version)))
            let close = RealtimeMessage.close(topic: channel.topic, joinRef: channel.joinRef)
            try await outbound.write(.text(RealtimeCodec.encode(close, version: outbox.version)))
        }
        try await outbound.close(code, reason: message)
    }

    // MARK: - Reading

    private func readLoop(_ inbound: WebSocketInboundStream) async {
        let limit = hub.configuration.maximumMessageBytes
        var pending: [UInt8] = []
        var pendingIsText = false
        var oversized = false
        do {
            for try await frame in inbound {
                registry.touch(clientID)
                switch frame.opcode {
                case .text, .binary:
                    pending.removeAll(keepingCapacity: true)
                    pendingIsText = frame.opcode == .text
                    oversized = false
                case .continuation:
                    break
                }
                if !oversized {
                    if pending.count + frame.data.readableBytes > limit {
                        oversized = true
                        pending = []
                    } else {
                        pending += frame.data.readableBytesView
                    }
                }
                guard frame.fin else { continue }
                if oversized {
                    outbox.enqueue(
                        RealtimeMessage.malformedFrameReply(reason: "MessageTooLarge: messages are limited to \(limit) bytes"))
                } else if pendingIsText {
                    await handle(text: String(decoding: pending, as: UTF8.self))
                }
                pending.removeAll(keepingCapacity: pending.count <= 64 * 1024)
                oversized = false
            }
        } catch {
            logger.debug("read failed; connection ends", metadata: ["realtime.error": "\(error)"])
        }
    }

    /// Handles one client message.
    func handle(text: String) async {
        let message: RealtimeMessage
        do {
            message = try RealtimeCodec.decode(text)
        } catch {
            logger.debug("malformed client frame", metadata: ["realtime.error": "\(error)"])
            outbox.enqueue(RealtimeMessage.malformedFrameReply(reason: "MalformedMessage: \(error)"))
            return
        }
        if message.topic == RealtimeTopic.phoenix {
            if message.event == RealtimeEvent.heartbeat {
                outbox.enqueue(RealtimeMessage.reply(to: message, status: .ok))
            } else {
                outbox.enqueue(RealtimeMessage.errorReply(to: message, reason: "UnknownEvent: '\(message.event.prefix(64))' on topic phoenix"))
            }
            return
        }
        switch message.event {
        case RealtimeEvent.join: await join(message)
        case RealtimeEvent.leave: leave(message)
        case RealtimeEvent.accessToken: await refreshToken(message)
        default:
            if registry.channel(clientID: clientID, topic: message.topic) == nil {
                outbox.enqueue(RealtimeMessage.errorReply(to: message, reason: "unmatched topic"))
            } else {
                outbox.enqueue(
                    RealtimeMessage.errorReply(to: message, reason: "UnknownEvent: '\(message.event.prefix(64))' is not supported"))
            }
        }
    }
}
