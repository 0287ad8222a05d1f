import CLibPQ
import Dispatch
import Synchronization

/// A running operation's way to be cancelled on the server: once its task has been cancelled for
/// a tick without an answer (a statement about to answer is left to finish, as a ROLLBACK after a
/// cancellation should be), or once its caller (an HTTP client) has left. One per operation, so
/// the request is sent once.
final class StatementCancellation: Sendable {
    private let handle: LibPQHandle
    private let caller: (any PostgresCaller)?
    private let state = Mutex(State())

    private struct State {
        var taskCancelledAt: ContinuousClock.Instant?
        var request = Request.notSent
    }

    private enum Request {
        case notSent
        /// On its way; these wait for it to be delivered (see ``settled()``).
        case sending([CheckedContinuation<Void, Never>])
        case sent
    }

    init(handle: LibPQHandle, caller: (any PostgresCaller)?) {
        self.handle = handle
        self.caller = caller
    }

    func taskWasCancelled() {
        state.withLock { $0.taskCancelledAt = $0.taskCancelledAt ?? .now }
    }

    /// Checked every tick of the poller.
    func cancelOnServerIfAbandoned(now: ContinuousClock.Instant) {
        let taskGaveUp = state.withLock { state in
            state.taskCancelledAt.map { now - $0 >= SocketPoller.tickInterval } ?? false
        }
        if taskGaveUp || caller?.hasLeft == true { cancelOnServer() }
    }

    /// Sends libpq's cancel request once, off the poller's thread (it opens a connection of its own).
    private func cancelOnServer() {
        let hasCancelHandle = handle.cancel != nil
        let first = state.withLock { state in
            guard case .notSent = state.request else { return false }
            state.request = hasCancelHandle ? .sending([]) : .sent
            return true
        }
        guard first, hasCancelHandle else { return }
        let handle = handle
        DispatchQueue.global().async { [self] in
            if let cancel = handle.cancel {
                var buffer = [CChar](repeating: 0, count: 256)
                _ = PQcancel(cancel, &buffer, Int32(buffer.count))
            }
            let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                defer { state.request = .sent }
                guard case .sending(let waiting) = state.request else { return [] }
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
                guard case .sending(var waiting) = state.request else { return false }
                waiting.append(continuation)
                state.request = .sending(waiting)
                return true
            }
            if !wait { continuation.resume() }
        }
    }
}
