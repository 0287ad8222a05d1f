import Synchronization

/// When each row was committed and when its event reached its subscriber.
final class DeliveryLog: Sendable {
    private struct State {
        var commits: [String: ContinuousClock.Instant] = [:]
        var receipts: [String: ContinuousClock.Instant] = [:]
        var subscribed = 0
        var failures: [String] = []
    }

    private let state = Mutex(State())

    func committed(_ ids: [String], at instant: ContinuousClock.Instant) {
        state.withLock { state in
            for id in ids { state.commits[id] = instant }
        }
    }

    func received(_ id: String, at instant: ContinuousClock.Instant) {
        state.withLock { $0.receipts[id] = instant }
    }

    func subscribed() {
        state.withLock { $0.subscribed += 1 }
    }

    func failed(_ reason: String) {
        state.withLock { state in
            if state.failures.count < 20 { state.failures.append(reason) }
        }
    }

    var subscribedCount: Int { state.withLock { $0.subscribed } }
    var failures: [String] { state.withLock { $0.failures } }

    /// How many of `ids` arrived, the latencies (ms) of those, and the last arrival.
    func summary(of ids: Set<String>) -> (delivered: Int, latencies: [Double], lastArrival: ContinuousClock.Instant?) {
        state.withLock { state in
            var latencies: [Double] = []
            var last: ContinuousClock.Instant?
            for id in ids {
                guard let received = state.receipts[id] else { continue }
                if let committed = state.commits[id] { latencies.append((received - committed).milliseconds) }
                if last.map({ received > $0 }) ?? true { last = received }
            }
            return (latencies.count, latencies, last)
        }
    }

    func deliveredCount(of ids: Set<String>) -> Int {
        state.withLock { state in ids.reduce(0) { $0 + (state.receipts[$1] == nil ? 0 : 1) } }
    }
}
