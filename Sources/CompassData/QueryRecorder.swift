import Synchronization

/// Remembers the statements a scope sent, for tests and benchmarks (never bind values).
///
/// ```swift
/// let recorder = QueryRecorder()
/// let scope = DatabaseScope(.user(id), on: connection, recorder: recorder)
/// recorder.statements.filter { $0.contains("school_status_history") }.count   // 1
/// ```
public final class QueryRecorder: Sendable {
    private let log = Mutex<[[String]]>([])

    /// Creates an empty recorder.
    public init() {}

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
    }

    func record(roundTrip statements: [String]) {
        log.withLock { $0.append(statements) }
    }
}
