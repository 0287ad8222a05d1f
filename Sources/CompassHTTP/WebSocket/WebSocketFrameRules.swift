import NIOCore
import NIOWebSocket

/// The RFC 6455 rules on client frames that NIO's decoder and swift-websocket let through: every
/// client frame is masked (§5.1), no reserved bit is set without an extension that defines it
/// (§5.2; none is negotiated here), and a continuation frame continues a message that is still
/// open while a new message waits for the open one to finish (§5.4). A frame that breaks one is
/// answered with a close frame, 1002 (protocol error), and the connection is closed.
///
/// Placed right after the frame decoder on an upgraded connection.
final class WebSocketFrameRules: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// A text or binary message has begun and its last frame has not come yet.
    private var messageOpen = false
    private var closed = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closed else { return }
        let frame = unwrapInboundIn(data)
        if let broken = Self.brokenRule(frame, messageOpen: messageOpen) {
            refuse(context: context, reason: broken)
            return
        }
        switch frame.opcode {
        case .text, .binary: messageOpen = !frame.fin
        case .continuation: messageOpen = !frame.fin
        default: break
        }
        context.fireChannelRead(data)
    }

    /// Which rule `frame` breaks, given whether a message is open; nil when none.
    static func brokenRule(_ frame: WebSocketFrame, messageOpen: Bool) -> String? {
        if frame.maskKey == nil { return "client frames must be masked" }
        if frame.rsv1 || frame.rsv2 || frame.rsv3 { return "reserved bits must be 0 (no extension was negotiated)" }
        switch frame.opcode {
        case .continuation where !messageOpen: return "a continuation frame with no message to continue"
        case .text where messageOpen, .binary where messageOpen: return "a new message before the last one ended"
        default: return nil
        }
    }

    private func refuse(context: ChannelHandlerContext, reason: String) {
        closed = true
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: .protocolError)
        data.writeString(reason)
        let close = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        context.writeAndFlush(wrapOutboundOut(close)).whenComplete { _ in context.close(promise: nil) }
    }
}
