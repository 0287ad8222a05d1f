import CompassHTTP
import Synchronization

/// One WebSocket client's bounded queue of outgoing frames.
///
/// Producers (the change fan-out, the connection's own replies) never wait: `enqueue`
/// either appends or, when `capacity` frames are already waiting, drops the backlog and
/// marks the client for closing (a slow consumer). A connection attaches a
/// ``ClientOutboxSink`` that takes frames out in batches on its socket's event loop
/// (``takeForSocket()``); without one (tests), a task takes them with ``next()`` and learns
/// there when to close and why.
public final class ClientOutbox: Sendable {
    /// The connection's number, unique in this process.
    public let clientID: Int
    /// The connection's frame encoding.
    public let version: RealtimeProtocolVersion
    /// The most frames that may wait; one more closes the client.
    public let capacity: Int
    /// The most bytes that may wait (a frame can hold a megabyte-sized record); more closes the client.
    public let maximumBytes: Int
    /// What every client's waiting frames may hold together; nil for no such bound (tests).
    let budget: ByteBudget?
    private let state: Mutex<State>

    /// A frame waiting to be written, with the change's time for the latency metric.
    public struct Frame: Sendable {
        /// The encoded text frame.
        public var text: String
        /// When the change it carries was recorded (microseconds since 1970), for change events.
        public var recordedAtMicroseconds: Int64?

        public init(text: String, recordedAtMicroseconds: Int64? = nil) {
            self.text = text
            self.recordedAtMicroseconds = recordedAtMicroseconds
        }
    }

    /// Why the server ends a connection.
    public enum CloseReason: Sendable, Hashable {
        /// The client did not read fast enough and its queue filled up.
        case slowConsumer
        /// The server is shutting down or restarting.
        case shutdown
        /// Nothing arrived from the client for too long.
        case idle
    }

    /// What the writer should do next.
    public enum Work: Sendable {
        /// Write these, in order.
        case frames([Frame])
        /// Write nothing more of the backlog; end the connection.
        case close(CloseReason)
    }

    private struct State {
        var frames: [Frame] = []
        /// The waiting frames' text, in UTF-8 bytes.
        var bytes = 0
        var closing: CloseReason?
        var closeTaken = false
        /// The writer, waiting for frames.
        var waiter: CheckedContinuation<Void, Never>?
        /// The watchdog, waiting for a close request.
        var closeWaiter: CheckedContinuation<Void, Never>?
        /// The socket writer, told once when frames start waiting (instead of `waiter`).
        var sink: (any ClientOutboxSink)?
        /// True from telling the sink until it takes the frames: later frames join the same write.
        var sinkTold = false

        /// The sink, if it has not been told of waiting frames yet.
        mutating func tellSink() -> (any ClientOutboxSink)? {
            guard let sink, !sinkTold else { return nil }
            sinkTold = true
            return sink
        }

        mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
            defer {
                waiter = nil
                if closing != nil { closeWaiter = nil }
            }
            return [waiter, closing != nil ? closeWaiter : nil].compactMap { $0 }
        }
    }

    /// Makes an empty outbox.
    public init(clientID: Int, version: RealtimeProtocolVersion, capacity: Int, maximumBytes: Int = .max, budget: ByteBudget? = nil) {
        self.clientID = clientID
        self.version = version
        self.capacity = max(1, capacity)
        self.maximumBytes = max(1, maximumBytes)
        self.budget = budget
        self.state = Mutex(State())
    }

    deinit {
        // Frames never taken (the connection ended first) hold no part of the budget any more.
        budget?.release(state.withLock { $0.bytes })
    }

    /// What became of a frame handed to ``enqueue(_:)``.
    public enum EnqueueResult: Sendable, Hashable {
        /// Waiting to be written.
        case queued
        /// This frame found the queue full: the backlog was dropped and the client is being closed.
        case overflowed
        /// The client is already closing; the frame was dropped.
        case dropped
        /// The channel the frame was for was left or re-joined; the frame was dropped.
        case channelLeft
    }

    /// Queues a frame without waiting; a full queue closes the client instead.
    @discardableResult
    public func enqueue(_ frame: Frame) -> EnqueueResult {
        enqueue(frame, whileJoined: nil)
    }

    /// Queues a frame for a channel, unless the channel has ended by now (read under this
    /// outbox's lock, so the frame cannot land behind the reply to a re-join).
    func enqueue(_ frame: Frame, whileJoined liveness: ChannelLiveness?) -> EnqueueResult {
        let (result, waiters, sink) = state.withLock {
            state -> (EnqueueResult, [CheckedContinuation<Void, Never>], (any ClientOutboxSink)?) in
            guard state.closing == nil else { return (.dropped, [], nil) }
            if let liveness, !liveness.isCurrent { return (.channelLeft, [], nil) }
            let size = frame.text.utf8.count
            // A first frame always fits: one large event is not a slow client. A backlog past this
            // client's bytes, or past what all clients may hold together, is one.
            if state.frames.count >= capacity
                || !state.frames.isEmpty && (state.bytes > maximumBytes - size || budget?.wouldPass(adding: size) == true)
            {
                budget?.release(state.bytes)
                state.frames.removeAll()
                state.bytes = 0
                state.closing = .slowConsumer
                return (.overflowed, state.takeWaiters(), nil)
            }
            state.frames.append(frame)
            state.bytes += size
            budget?.add(size)
            return (.queued, state.takeWaiters(), state.tellSink())
        }
        for waiter in waiters { waiter.resume() }
        sink?.framesWaiting()
        return result
    }

    /// Hands this outbox's frames to `sink` from now on (frames already waiting included).
    public func attach(_ sink: any ClientOutboxSink) {
        let told = state.withLock { state -> (any ClientOutboxSink)? in
            state.sink = sink
            return state.frames.isEmpty ? nil : state.tellSink()
        }
        told?.framesWaiting()
    }

    /// Lets go of the sink once the connection has ended. The sink (the socket's writer) holds
    /// this outbox too: kept, the pair and the connection's channel were never freed, 2-4 KB
    /// for every WebSocket connection the worker had ever served.
    public func detach() {
        let sink = state.withLock { state -> (any ClientOutboxSink)? in
            defer { state.sink = nil }
            return state.sink
        }
        _ = sink  // released here, outside the lock
    }

    /// Every frame waiting, in order, for the attached sink, and whether a close was requested
    /// (change events are then no longer written); the next frame tells the sink again.
    public func takeForSocket() -> (frames: [Frame], closing: Bool) {
        let (frames, closing, _) = takeForSocket(upTo: .max)
        return (frames, closing)
    }

    /// The waiting frames from the front whose text stays within `bytes` (at least one), and
    /// whether more are left: the socket takes a bounded share at a time, so a client that reads
    /// a little and stops holds its backlog here, where its bounds see it, not in NIO's queue.
    func takeForSocket(upTo bytes: Int) -> (frames: [Frame], closing: Bool, more: Bool) {
        state.withLock { state in
            state.sinkTold = false
            var count = 0
            var taken = 0
            for frame in state.frames {
                let size = frame.text.utf8.count
                if count > 0, taken > bytes - size { break }
                count += 1
                taken += size
            }
            var frames: [Frame] = []
            if count == state.frames.count {
                swap(&frames, &state.frames)
            } else {
                frames = Array(state.frames.prefix(count))
                state.frames.removeFirst(count)
            }
            budget?.release(taken)
            state.bytes -= taken
            return (frames, state.closing != nil, !state.frames.isEmpty)
        }
    }

    /// Queues an encoded message.
    @discardableResult
    public func enqueue(_ message: RealtimeMessage) -> EnqueueResult {
        enqueue(Frame(text: RealtimeCodec.encode(message, version: version)))
    }

    /// Asks the writer to end the connection; frames already queued are still written first.
    public func close(_ reason: CloseReason) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if state.closing == nil { state.closing = reason }
            return state.takeWaiters()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The reason, once a close is requested (or the queue overflowed); nil if the waiting task is cancelled.
    ///
    /// The connection uses it as a watchdog: a client that does not even take its close
    /// frames within a grace period has its TCP connection closed.
    public func closeRequested() async -> CloseReason? {
        while true {
            if let reason = state.withLock({ $0.closing }) { return reason }
            if Task.isCancelled { return nil }
            await wait(untilClosing: true)
        }
    }

    /// True once a close was requested or the queue overflowed.
    public var isClosing: Bool {
        state.withLock { $0.closing != nil }
    }

    /// Frames waiting now (for metrics and tests).
    public var queuedCount: Int {
        state.withLock { $0.frames.count }
    }

    /// Waits for work; nil when the waiting task is cancelled.
    public func next() async -> Work? {
        while true {
            let work = state.withLock { state -> Work? in
                if !state.frames.isEmpty {
                    // Hand the buffer over rather than copy-and-keep-capacity: the batch still
                    // references it, so keeping capacity meant a fresh buffer of the burst's
                    // peak size held for the rest of the connection.
                    var taken: [Frame] = []
                    swap(&taken, &state.frames)
                    budget?.release(state.bytes)
                    state.bytes = 0
                    return .frames(taken)
                }
                if let reason = state.closing, !state.closeTaken {
                    state.closeTaken = true
                    return .close(reason)
                }
                return nil
            }
            if let work { return work }
            if Task.isCancelled { return nil }
            await wait(untilClosing: false)
        }
    }

    /// Suspends until there is work for the writer (or a close request for the watchdog), or cancellation.
    private func wait(untilClosing watchdog: Bool) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // Checked under the lock the cancellation handler also takes, so a
                // cancellation either is seen here or finds the waiter installed.
                let resumeNow = state.withLock { state -> Bool in
                    let ready: Bool
                    if watchdog {
                        ready = state.closing != nil || Task.isCancelled
                        if !ready { state.closeWaiter = continuation }
                    } else {
                        ready = !state.frames.isEmpty || (state.closing != nil && !state.closeTaken) || Task.isCancelled
                        if !ready { state.waiter = continuation }
                    }
                    return ready
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if watchdog {
                    defer { state.closeWaiter = nil }
                    return state.closeWaiter
                }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}

/// Where an outbox's frames go on a live connection: its socket writer.
public protocol ClientOutboxSink: AnyObject, Sendable {
    /// Frames started waiting; called once until the sink takes them with ``ClientOutbox/takeForSocket()``.
    /// Called from any thread, never under the outbox's lock.
    func framesWaiting()
}
