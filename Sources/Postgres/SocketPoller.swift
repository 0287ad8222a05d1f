#if canImport(Glibc)
import Glibc
#endif
import CLibPQ
import Synchronization

/// One thread waiting on every connection's socket at once (epoll), so a statement's wait holds
/// no thread: the task that sent it suspends, and resumes on Swift's executor once the server
/// has answered.
///
/// Before it, each connection ran on its own dispatch queue and blocked in `poll()`: every
/// statement cost a hop onto that queue and one back, on top of the kernel's wake-up.
///
/// Linux only (epoll), as the project is. Each wait is armed one-shot. The thread also wakes every
/// 100 ms, idle or not, to send a cancel request for statements whose task was cancelled or whose
/// HTTP client has gone (``PostgresCancellation``), and at timed waits' (`LISTEN`'s) deadlines.
final class SocketPoller: Sendable {
    static let shared = SocketPoller()

    /// How a wait ended.
    enum Readiness: Sendable, Equatable {
        /// The socket is readable (or writable, when that was asked), or it failed: ask libpq.
        case ready
        /// The deadline passed, or the waiting task was cancelled (timed waits only).
        case timedOut
        /// epoll refused to watch the socket (this errno): the wait cannot be kept.
        case unwatchable(Int32)
    }

    private struct Waiter {
        let continuation: CheckedContinuation<Readiness, Never>
        /// Nil for a statement's wait: it lasts until the server answers.
        let deadline: ContinuousClock.Instant?
        /// What to check every tick, and how to cancel the statement on the server.
        let cancellation: StatementCancellation?
    }

    private struct State {
        var waiters: [Int32: Waiter] = [:]
        /// When the thread's current `epoll_wait` ends by itself (a tick at the latest).
        var parkedUntil = ContinuousClock.now
    }

    /// How often waiting statements are checked for cancellation.
    static let tickInterval = Duration.milliseconds(100)

    private let epoll: Int32
    /// Written to interrupt `epoll_wait` when a timed wait's deadline comes before it would wake.
    private let wakeUp: Int32
    private let state = Mutex(State())

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
    /// `nonisolated(nonsending)`: it runs on the caller's actor, so a wait costs no hop off it.
    nonisolated(nonsending) func wait(
        for socket: Int32, writable: Bool, deadline: ContinuousClock.Instant?, cancellation: StatementCancellation?
    ) async -> Readiness {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let waiter = Waiter(continuation: continuation, deadline: deadline, cancellation: cancellation)
                // A statement's wait never wakes the thread: it ticks every 100 ms anyway, idle or not,
                // so the hot path costs no eventfd write and no extra wake-up of the poller.
                let mustWake = state.withLock { state in
                    state.waiters[socket] = waiter
                    return deadline.map { $0 < state.parkedUntil } ?? false
                }
                var event = epoll_event(
                    events: EPOLLIN.rawValue | (writable ? EPOLLOUT.rawValue : 0) | EPOLLONESHOT.rawValue,
                    data: epoll_data_t(fd: socket))
                if epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &event) != 0 && epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &event) != 0 {
                    resume(socket, with: .unwatchable(errno))
                    return
                }
                if mustWake { signalWakeUp() }
                // Cancelled before this wait began: the handler below has run already, and found no waiter.
                if Task.isCancelled { cancelled(socket, deadline: deadline, cancellation: cancellation) }
            }
        } onCancel: {
            cancelled(socket, deadline: deadline, cancellation: cancellation)
        }
    }

    /// A timed wait ends at once; a statement's wait asks the next tick to cancel it on the server.
    private func cancelled(_ socket: Int32, deadline: ContinuousClock.Instant?, cancellation: StatementCancellation?) {
        if deadline != nil {
            resume(socket, with: .timedOut)
        } else {
            cancellation?.taskWasCancelled()
        }
    }

    /// Forgets `socket` before libpq closes it (a later connection may get the same number).
    func forget(_ socket: Int32) {
        epoll_ctl(epoll, EPOLL_CTL_DEL, socket, nil)
        resume(socket, with: .ready)
    }

    private func resume(_ socket: Int32, with readiness: Readiness) {
        state.withLock { $0.waiters.removeValue(forKey: socket) }?.continuation.resume(returning: readiness)
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
            let due = park(lastTick: lastTick)
            let count = epoll_wait(epoll, &events, Int32(events.count), Self.milliseconds(until: due))
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
            if ContinuousClock.now >= due {
                lastTick = .now
                tick()
            }
        }
    }

    /// When the next `epoll_wait` must end: the nearest deadline, or the next tick. Recorded, so a
    /// new timed wait knows whether to wake the thread.
    private func park(lastTick: ContinuousClock.Instant) -> ContinuousClock.Instant {
        state.withLock { state in
            var due = lastTick + Self.tickInterval
            for waiter in state.waiters.values {
                if let deadline = waiter.deadline { due = min(due, deadline) }
            }
            state.parkedUntil = due
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
        let expired = state.withLock { state -> [CheckedContinuation<Readiness, Never>] in
            var expired: [CheckedContinuation<Readiness, Never>] = []
            for (socket, waiter) in state.waiters {
                if let deadline = waiter.deadline {
                    if deadline <= now {
                        expired.append(waiter.continuation)
                        state.waiters[socket] = nil
                    }
                } else {
                    waiter.cancellation?.cancelOnServerIfAbandoned(now: now)
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
