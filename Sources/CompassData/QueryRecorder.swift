import Postgres
import Synchronization

/// Remembers the statements a scope sent, for tests and benchmarks (bind values only on request).
///
/// ```swift
/// let recorder = QueryRecorder()
/// let scope = DatabaseScope(.user(id), on: connection, recorder: recorder)
/// recorder.statements.filter { $0.contains("school_status_history") }.count   // 1
/// ```
public final class QueryRecorder: Sendable {
    private let log = Mutex<[[String]]>([])
    private let sent = Mutex<[[[PostgresQuery]]]>([])
    private let keepsWork: Bool

    /// Creates an empty recorder. With `keepingWork`, it also keeps each round trip's segments
    /// exactly as sent (scope statements and bind values included), for ``sentRoundTrips``.
    public init(keepingWork: Bool = false) {
        self.keepsWork = keepingWork
    }

    /// Each round trip's segments as sent, to send the very same work again (FeedBenchmark's
    /// libpq floor); empty unless made with `keepingWork`.
    public var sentRoundTrips: [[[PostgresQuery]]] {
        sent.withLock { $0 }
    }

    /// Every statement's SQL text (with `$n` placeholders), scope statements left out, in order.
    public var statements: [String] {
        log.withLock { $0.flatMap { $0 } }
    }

    /// The statements of each round trip, in order.
    public var roundTrips: [[String]] {
        log.withLock { $0 }
    }

    /// Forgets everything recorded so far.
    public func reset() {
        log.withLock { $0.removeAll() }
        sent.withLock { $0.removeAll() }
    }

    /// Records one round trip: `segments` as the scope sent them, scope statements first.
    func record(roundTrip segments: [[PostgresQuery]]) {
        log.withLock { $0.append(segments.flatMap { $0.dropFirst().map(\.sql) }) }
        if keepsWork { sent.withLock { $0.append(segments) } }
    }
}
