import Foundation
import NIOCore
import NIOWebSocket
import Synchronization

/// Writes one connection's queued frames to its socket, on the socket's event loop.
///
/// Every frame waiting when it runs goes out in order with a single flush (one `writev`),
/// with no task woken and no async writer per frame: the fan-out queues a batch's frames,
/// and each event loop drains all of its connections that have some in one pass
/// (``EventLoopFlusher``).
///
/// Backpressure is the channel's, as with the async writer: once NIO holds more than its
/// high-water mark unsent, nothing more is taken until what was written reached the
/// kernel; frames wait in the outbox meanwhile, and its capacity closes a client that
/// never catches up.
final class SocketFrameWriter: ClientOutboxSink, @unchecked Sendable {
    let channel: any Channel
    let outbox: ClientOutbox
    let metrics: RealtimeMetrics
    private let flusher: EventLoopFlusher
    /// Touched on the event loop only: a write is waiting for the kernel to take the backlog.
    private var waitingForKernel = false

    init(channel: any Channel, outbox: ClientOutbox, metrics: RealtimeMetrics, flusher: EventLoopFlusher) {
        self.channel = channel
        self.outbox = outbox
        self.metrics = metrics
        self.flusher = flusher
    }

    func framesWaiting() {
        flusher.schedule(self)
    }

    /// Writes what is waiting, unless the socket still has a backlog (then its end does). On the event loop.
    func drain() {
        guard !waitingForKernel else { return }
        let (frames, closing) = outbox.takeForSocket()
        guard let last = write(frames, closing: closing), !channel.isWritable else { return }
        waitingForKernel = true
        last.futureResult.whenComplete { result in
            self.waitingForKernel = false
            // A failed write means the socket is gone: the session is ending, nothing to wait for.
            if case .success = result { self.drain() }
        }
    }

    /// Writes what is waiting whatever the backlog (a close follows: only replies and notices
    /// remain, change events are dropped once a close is requested).
    func drainBeforeClose() async throws {
        try await channel.eventLoop.submit {
            let (frames, closing) = self.outbox.takeForSocket()
            _ = self.write(frames, closing: closing)
        }.get()
    }

    /// Writes `frames` (without change events if `closing`) and flushes once; the last write's promise.
    private func write(_ frames: [ClientOutbox.Frame], closing: Bool) -> EventLoopPromise<Void>? {
        channel.eventLoop.assertInEventLoop()
        var sent: [ClientOutbox.Frame] = []
        sent.reserveCapacity(frames.count)
        for frame in frames where !closing || frame.recordedAtMicroseconds == nil {
            sent.append(frame)
        }
        guard !sent.isEmpty else { return nil }
        let promise = channel.eventLoop.makePromise(of: Void.self)
        for (index, frame) in sent.enumerated() {
            let data = channel.allocator.buffer(string: frame.text)
            channel.write(WebSocketFrame(fin: true, opcode: .text, data: data), promise: index == sent.count - 1 ? promise : nil)
        }
        channel.flush()
        metrics.recordSent(sent.lazy.map(\.recordedAtMicroseconds))
        return promise
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
