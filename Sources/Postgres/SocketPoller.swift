#if canImport(Glibc)
import Glibc
#endif
import CLibPQ
import Dispatch
import Synchronization

/// One thread waiting on every connection's socket at once (epoll), so a statement's wait holds
/// no thread: the task that sent it suspends, and resumes on Swift's executor once the server
/// has answered.
///
/// Before it, each connection ran on its own dispatch queue and blocked in `poll()`: every
/// statement cost a hop onto that queue and one back, on top of the kernel's wake-up.
///
/// Each wait is armed one-shot. The thread wakes at least every 100 ms while statements are
/// waiting, to send a cancel request for those whose task was cancelled or whose HTTP client
/// has gone (``PostgresCancellation``); it also ends timed waits (`LISTEN`'s) at their deadline.
final class SocketPoller: Sendable {
    static let shared = SocketPoller()

    /// How a wait ended.
    enum Readiness: Sendable {
        /// The socket is readable (or writable, when that was asked), or it failed: ask libpq.
        case ready
        /// The deadline passed, or the waiting task was cancelled (timed waits only).
        case timedOut
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Readiness, Never>
        /// Nil for a statement's wait: it lasts until the server answers.
        let deadline: ContinuousClock.Instant?
        /// What to check every tick, and how to cancel the statement on the server.
        let cancellation: StatementCancellation?
    }

    private let epoll: Int32
    /// Written to interrupt `epoll_wait` when a wait with an earlier deadline arrives.
    private let wakeUp: Int32
    private let waiters = Mutex<[Int32: Waiter]>([:])

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeUp = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(epoll >= 0 && wakeUp >= 0, "could not create the Postgres socket poller (errno \(errno))")
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: wakeUp))
        epoll_ctl(epoll, EPOLL_CTL_ADD, wakeUp, &event)
        let thread = Thread(poller: self)
        thread.start()
    }

    /// Suspends until `socket` is readable (or writable too, when `writable`), or until `deadline`.
    ///
    /// A statement's wait (`deadline == nil`) is not ended by cancellation: the statement is
    /// cancelled on the server instead, and its error (57014) is the answer to wait for.
    func wait(
        for socket: Int32, writable: Bool, deadline: ContinuousClock.Instant?, cancellation: StatementCancellation?
    ) async -> Readiness {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiter = Waiter(continuation: continuation, deadline: deadline, cancellation: cancellation)
                waiters.withLock { $0[socket] = waiter }
                var event = epoll_event(
                    events: EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0) | EPOLLONESHOT.rawValue,
                    data: epoll_data_t(fd: socket))
                if epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 && epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) != 0 {
                    // Not a socket epoll can watch (closed under us): let libpq find out.
                    resume(socket, with: .ready)
                    return
                }
                if deadline != nil { signalWakeUp() }
                // Cancelled before the handler below was installed: it will not run.
                if Task.isCancelled {
                    if deadline != nil { resume(socket, with: .timedOut) } else { cancellation?.cancelOnServer() }
                }
            }
        } onCancel: {
            if deadline != nil {
                resume(socket, with: .timedOut)
            } else {
                cancellation?.cancelOnServer()
            }
        }
    }

    /// Forgets `socket` before libpq closes it (a later connection may get the same number).
    func forget(_ socket: Int32) {
        epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
        resume(socket, with: .ready)
    }

    private func resume(_ socket: Int32, with readiness: Readiness) {
        waiters.withLock { $0.removeValue(forKey: socket) }?.continuation.resume(returning: readiness)
    }

    private func signalWakeUp() {
        var one: UInt64 = 1
        _ = Glibc.write(wakeUp, &one, 8)
    }

    /// The poller thread's loop: wait, resume the ready, and tick when a tick is due.
    fileprivate func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        var lastTick = ContinuousClock.now
        while true {
            let due = nextTick(after: lastTick)
            let count = epoll_wait(epoll, &events, Int32(events.count), due.map(Self.milliseconds(until:)) ?? -1)
            if count < 0 {
                guard errno == EINTR else { fatalError("epoll_wait failed: errno \(errno)") }
                continue
            }
            for event in events.prefix(Int(count)) {
                let socket = event.data.fd
                if socket == wakeUp {
                    var value: UInt64 = 0
                    _ = Glibc.read(wakeUp, &value, 8)
                } else {
                    resume(socket, with: .ready)
                }
            }
            if let due, ContinuousClock.now >= due {
                lastTick = .now
                tick()
            }
        }
    }

    /// The nearest deadline, or 100 ms after the last tick while statements wait (to notice
    /// cancellations); nil when nothing waits.
    private func nextTick(after lastTick: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        waiters.withLock { waiters in
            var due: ContinuousClock.Instant?
            for waiter in waiters.values {
                let next = waiter.deadline ?? lastTick + .milliseconds(100)
                due = min(due ?? next, next)
            }
            return due
        }
    }

    /// Rounded up, so a deadline is not met a millisecond early by a spin of zero-timeout waits.
    private static func milliseconds(until instant: ContinuousClock.Instant) -> Int32 {
        let (seconds, attoseconds) = max(.zero, instant - .now).components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    /// Ends the waits whose deadline passed; sends the cancel request of statements no one waits for any more.
    private func tick() {
        let now = ContinuousClock.now
        let expired = waiters.withLock { waiters -> [CheckedContinuation<Readiness, Never>] in
            var expired: [CheckedContinuation<Readiness, Never>] = []
            for (socket, waiter) in waiters {
                if let deadline = waiter.deadline {
                    if deadline <= now {
                        expired.append(waiter.continuation)
                        waiters[socket] = nil
                    }
                } else {
                    waiter.cancellation?.cancelOnServerIfAbandoned()
                }
            }
            return expired
        }
        for continuation in expired { continuation.resume(returning: .timedOut) }
    }

    /// The poller's thread: a plain pthread, never one of Swift's or Dispatch's pools.
    private final class Thread {
        let poller: SocketPoller

        init(poller: SocketPoller) {
            self.poller = poller
        }

        func start() {
            var thread = pthread_t()
            let box = Unmanaged.passRetained(self).toOpaque()
            let created = pthread_create(&thread, nil, { context in
                let thread = Unmanaged<Thread>.fromOpaque(context!).takeRetainedValue()
                thread.poller.run()
                return nil
            }, box)
            precondition(created == 0, "could not start the Postgres socket poller (error \(created))")
            pthread_detach(thread)
        }
    }
}

/// A running operation's way to be cancelled on the server: when its task is cancelled, or once
/// its caller (an HTTP client) has left. One per operation, so the request is sent once.
final class StatementCancellation: Sendable {
    private let handle: LibPQHandle
    private let caller: (any PostgresCaller)?
    private let state = Mutex(State.notSent)

    private enum State {
        case notSent
        /// On its way; these wait for it to be delivered (see ``settled()``).
        case sending([CheckedContinuation<Void, Never>])
        case sent
    }

    init(handle: LibPQHandle, caller: (any PostgresCaller)?) {
        self.handle = handle
        self.caller = caller
    }

    /// Checked every tick of the poller.
    func cancelOnServerIfAbandoned() {
        if caller?.hasLeft == true { cancelOnServer() }
    }

    /// Sends libpq's cancel request once, off the poller's thread (it opens a connection of its own).
    func cancelOnServer() {
        let first = state.withLock { state in
            guard case .notSent = state else { return false }
            state = .sending([])
            return true
        }
        guard first, handle.cancel != nil else { return }
        let handle = handle
        DispatchQueue.global().async { [self] in
            if let cancel = handle.cancel {
                var buffer = [CChar](repeating: 0, count: 256)
                _ = PQcancel(cancel, &buffer, Int32(buffer.count))
            }
            let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                defer { state = .sent }
                guard case .sending(let waiting) = state else { return [] }
                return waiting
            }
            for continuation in waiting { continuation.resume() }
        }
    }

    /// Returns once no cancel request of this operation is still on its way: one that arrived
    /// late would cancel the next lease's statement instead.
    func settled() async {
        await withCheckedContinuation { continuation in
            let wait = state.withLock { state in
                guard case .sending(var waiting) = state else { return false }
                waiting.append(continuation)
                state = .sending(waiting)
                return true
            }
            if !wait { continuation.resume() }
        }
    }
}
