import Foundation
import NIOCore
import Synchronization

/// Writes one connection's queued frames to its socket, on the socket's event loop.
///
/// Every frame waiting when it runs goes out in order as one buffer with a single flush
/// (one `writev` entry, one syscall), with no task woken and no async writer per frame: the
/// fan-out queues a batch's frames, and each event loop drains all of its connections that
/// have some in one pass (``EventLoopFlusher``). The frames are framed here (unmasked text
/// frames, as a server sends them) and written below NIO's WebSocket encoder, through
/// ``RawFrameOutlet`` at the head of the pipeline; the socket's own writes (close frames,
/// pongs) still go through the encoder, in the order they are made on the loop.
///
/// Backpressure is the channel's, as with the async writer: once NIO holds more than its
/// high-water mark unsent, nothing more is taken until the channel is writable again;
/// frames wait in the outbox meanwhile, and its capacity closes a client that never
/// catches up.
final class SocketFrameWriter: ClientOutboxSink, @unchecked Sendable {
    let channel: any Channel
    let outbox: ClientOutbox
    let metrics: RealtimeMetrics
    private let flusher: EventLoopFlusher
    private let outlet = RawFrameOutlet()
    /// Touched on the event loop only: the channel was not writable at the last drain.
    private var waitingForWritability = false

    init(channel: any Channel, outbox: ClientOutbox, metrics: RealtimeMetrics, flusher: EventLoopFlusher) {
        self.channel = channel
        self.outbox = outbox
        self.metrics = metrics
        self.flusher = flusher
    }

    /// Puts the writer's outlet at the head of the channel's pipeline; frames may flow after this.
    func install() async throws {
        try await channel.eventLoop.submit {
            try self.channel.pipeline.syncOperations.addHandler(self.outlet, position: .first)
        }.get()
    }

    func framesWaiting() {
        flusher.schedule(self)
    }

    /// What one write takes from the outbox at most (a larger single frame goes alone).
    static let bytesPerWrite = 256 << 10

    /// Writes what is waiting, a bounded share at a time while the channel stays writable (then
    /// a timer looks again). On the event loop.
    func drain() {
        guard !waitingForWritability else { return }
        while true {
            let (frames, closing, more) = outbox.takeForSocket(upTo: Self.bytesPerWrite)
            write(frames, closing: closing)
            guard more, channel.isWritable, channel.isActive else { break }
        }
        if !channel.isWritable, channel.isActive {
            waitingForWritability = true
            recheckWritability()
        }
    }

    /// Drains once the channel is writable again; polls, as a slow client is rare and a poll costs nothing meanwhile.
    private func recheckWritability() {
        channel.eventLoop.scheduleTask(in: .milliseconds(2)) {
            guard self.channel.isActive else { return }
            if self.channel.isWritable {
                self.waitingForWritability = false
                self.drain()
            } else {
                self.recheckWritability()
            }
        }
    }

    /// Writes what is waiting whatever the backlog (a close follows: only replies and notices
    /// remain, change events are dropped once a close is requested).
    func drainBeforeClose() async throws {
        try await channel.eventLoop.submit {
            let (frames, closing) = self.outbox.takeForSocket()
            self.write(frames, closing: closing)
        }.get()
    }

    /// Writes `frames` (without change events if `closing`) as one buffer and flushes.
    private func write(_ frames: [ClientOutbox.Frame], closing: Bool) {
        channel.eventLoop.assertInEventLoop()
        let sent = frames.lazy.filter { !closing || $0.recordedAtMicroseconds == nil }
        let bytes = sent.reduce(0) { $0 + WebSocketTextFrame.headerBytes(payload: $1.text.utf8.count) + $1.text.utf8.count }
        guard bytes > 0 else { return }
        var buffer = channel.allocator.buffer(capacity: bytes)
        for frame in sent { WebSocketTextFrame.write(frame.text, to: &buffer) }
        // Still held until the socket took it: counted against every client's waiting bytes till then.
        outbox.budget?.add(bytes)
        outlet.writeAndFlush(buffer) { [budget = outbox.budget] in budget?.release(bytes) }
        metrics.recordSent(sent.map(\.recordedAtMicroseconds))
    }
}

/// The head of a WebSocket channel's pipeline: bytes written here go to the socket as they
/// are, already framed.
final class RawFrameOutlet: ChannelOutboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    /// Set and read on the event loop only.
    private var context: ChannelHandlerContext?

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Writes `bytes` towards the socket and flushes, then calls `written` once the socket took
    /// them or the channel dropped them (at once when the handler already left the pipeline).
    func writeAndFlush(_ bytes: ByteBuffer, written: @escaping @Sendable () -> Void = {}) {
        guard let context else {
            written()
            return
        }
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { _ in written() }
        context.write(wrapOutboundOut(bytes), promise: promise)
        context.flush()
    }
}

/// RFC 6455 framing of a server's text message: one final, unmasked frame.
enum WebSocketTextFrame {
    /// Bytes of the header before a payload of `payload` bytes.
    static func headerBytes(payload: Int) -> Int {
        payload < 126 ? 2 : payload <= 0xFFFF ? 4 : 10
    }

    /// Appends `text` as one frame.
    static func write(_ text: String, to buffer: inout ByteBuffer) {
        let length = text.utf8.count
        buffer.writeInteger(UInt8(0x81))  // FIN, opcode 1 (text)
        if length < 126 {
            buffer.writeInteger(UInt8(length))
        } else if length <= 0xFFFF {
            buffer.writeInteger(UInt8(126))
            buffer.writeInteger(UInt16(length))
        } else {
            buffer.writeInteger(UInt8(127))
            buffer.writeInteger(UInt64(length))
        }
        buffer.writeString(text)
    }
}

/// One event loop's pending socket writes: connections with frames waiting are drained
/// together in one task on the loop, so a batch of changes costs each loop one wake-up,
/// not one per connection.
final class EventLoopFlusher: Sendable {
    let eventLoop: any EventLoop
    private let pending = Mutex<[SocketFrameWriter]>([])

    init(eventLoop: any EventLoop) {
        self.eventLoop = eventLoop
    }

    /// Drains `writer` on the loop soon, with every other writer scheduled before then.
    func schedule(_ writer: SocketFrameWriter) {
        let first = pending.withLock { pending in
            pending.append(writer)
            return pending.count == 1
        }
        guard first else { return }
        eventLoop.execute { self.run() }
    }

    private func run() {
        let writers = pending.withLock { pending in
            var taken: [SocketFrameWriter] = []
            swap(&taken, &pending)
            return taken
        }
        for writer in writers { writer.drain() }
    }
}

/// The flusher of each event loop that serves realtime sockets.
final class EventLoopFlushers: Sendable {
    private let flushers = Mutex<[ObjectIdentifier: EventLoopFlusher]>([:])

    /// The flusher for `eventLoop`, made on first use.
    func flusher(for eventLoop: any EventLoop) -> EventLoopFlusher {
        flushers.withLock { flushers in
            let key = ObjectIdentifier(eventLoop)
            if let flusher = flushers[key] { return flusher }
            let flusher = EventLoopFlusher(eventLoop: eventLoop)
            flushers[key] = flusher
            return flusher
        }
    }
}
