import Synchronization

/// An event that may happen thousands of times a second (a client hammering a cap) but is
/// reported at most once per `interval`: the first occurrence at once, then one report per
/// interval with how many happened since the last one.
///
/// ```swift
/// let refusals = ThrottledEvent(interval: .seconds(60))
/// refusals.occurred { count in logger.warning("connection refused", metadata: ["count": "\(count)"]) }
/// ```
public final class ThrottledEvent: Sendable {
    private let interval: Duration
    private let state = Mutex<(lastReport: ContinuousClock.Instant?, unreported: Int)>((nil, 0))

    public init(interval: Duration = .seconds(60)) {
        self.interval = interval
    }

    /// Counts one occurrence; calls `report` with the occurrences not yet reported (this one
    /// included) when the last report is `interval` old or there was none.
    public func occurred(now: ContinuousClock.Instant = .now, report: (Int) -> Void) {
        let due: Int? = state.withLock { state in
            state.unreported += 1
            if let last = state.lastReport, now - last < interval { return nil }
            defer { state = (now, 0) }
            return state.unreported
        }
        if let due { report(due) }
    }
}
