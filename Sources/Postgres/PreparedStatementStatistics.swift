import Synchronization

/// How often the prepared-statement caches of this process were used: statements sent by a name
/// prepared earlier (hits) and statements prepared on first use (misses).
///
/// ```swift
/// let (hits, misses) = PostgresConnection.preparedStatementStatistics.totals
/// ```
public final class PreparedStatementStatistics: Sendable {
    private let hitCount = Atomic<Int>(0)
    private let missCount = Atomic<Int>(0)

    init() {}

    func add(hits: Int, misses: Int) {
        if hits > 0 { hitCount.wrappingAdd(hits, ordering: .relaxed) }
        if misses > 0 { missCount.wrappingAdd(misses, ordering: .relaxed) }
    }

    /// Every hit and miss so far.
    public var totals: (hits: Int, misses: Int) {
        (hitCount.load(ordering: .relaxed), missCount.load(ordering: .relaxed))
    }
}

extension PostgresConnection {
    /// The prepared-statement caches' use over every connection of this process.
    public static var preparedStatementStatistics: PreparedStatementStatistics { PreparedStatementCache.statistics }
}
