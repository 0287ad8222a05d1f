/// Which statements one connection has prepared, by SQL text, bounded and least recently used out.
///
/// A plain value the connection owns: it names the statements of a pipeline before they
/// are sent and learns afterwards which preparations failed or went stale. No I/O here.
///
/// ```swift
/// var cache = PreparedStatementCache(capacity: 2)
/// cache.plan([[scope, feedQuery]], mayDeallocate: true).steps   // [[.prepareAndRun(…), .prepareAndRun(…)]]
/// cache.plan([[scope, feedQuery]], mayDeallocate: true).steps   // [[.named(…), .named(…)]]
/// ```
struct PreparedStatementCache: Sendable {
    /// Statements sent by a cached name (hits) and prepared anew (misses), over every connection
    /// of the process: `/metrics` reports them. Added once per pipeline, relaxed.
    static let statistics = PreparedStatementStatistics()

    /// How one statement of a pipeline travels.
    enum Step: Sendable, Hashable {
        /// As the unnamed statement (parsed and planned every time).
        case unnamed
        /// By the name it was prepared under earlier.
        case named(String)
        /// Prepared under this name right before it runs, in the same segment.
        case prepareAndRun(String)

        /// The name it executes under, if any.
        var name: String? {
            switch self {
            case .unnamed: return nil
            case .named(let name), .prepareAndRun(let name): return name
            }
        }
    }

    /// How a pipeline's statements travel, decided before it is sent.
    struct Plan: Sendable {
        /// Names to `DEALLOCATE` first (evicted, or left behind by a stale plan); `ALL` after
        /// ``PreparedStatementCache/discardAll()``.
        var deallocations: [String] = []
        /// For each segment and statement: how it is sent.
        var steps: [[Step]] = []
    }

    private struct Entry: Sendable {
        var name: String
        var lastUse: UInt64
    }

    /// The most statements kept prepared; 0 turns caching off.
    let capacity: Int
    private var entries: [String: Entry] = [:]
    private var useCounter: UInt64 = 0
    private var nameCounter = 0
    /// Names whose server-side statements must go at the next pipeline.
    private var pendingDeallocations: [String] = []
    /// Whether the next pipeline must start with `DEALLOCATE ALL`.
    private var pendingDeallocateAll = false

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// How many statements are prepared (or being prepared) now.
    var count: Int { entries.count }

    /// The name `sql` is prepared under, if it is.
    func name(for sql: String) -> String? {
        entries[sql]?.name
    }

    /// Decides how each statement marked ``PostgresQuery/isPrepared`` is sent: by its cached
    /// name, or prepared inside its segment right before it first runs (after the segment's own
    /// scope statement, so it is parsed with the segment's role). A new statement that an earlier
    /// segment of the same pipeline prepares runs unnamed in later ones, so no segment depends on
    /// another. Evicts the least recently used statements the pipeline does not use; their
    /// `DEALLOCATE`s are handed out only when `mayDeallocate` (outside any transaction block, where
    /// a failed `DEALLOCATE` would abort the caller's transaction).
    mutating func plan(_ segments: [[PostgresQuery]], mayDeallocate: Bool) -> Plan {
        var plan = Plan()
        // Until the pending DEALLOCATE ALL can go out, nothing new may be prepared (it would drop it).
        guard capacity > 0, !(pendingDeallocateAll && !mayDeallocate) else {
            plan.steps = segments.map { $0.map { _ in .unnamed } }
            return plan
        }
        var preparedInEarlierSegments: Set<String> = []
        var (hits, misses) = (0, 0)
        defer { Self.statistics.add(hits: hits, misses: misses) }
        for segment in segments {
            var steps: [Step] = []
            steps.reserveCapacity(segment.count)
            var preparedHere: Set<String> = []
            for query in segment {
                guard query.isPrepared else {
                    steps.append(.unnamed)
                    continue
                }
                useCounter += 1
                if !preparedInEarlierSegments.isEmpty, preparedInEarlierSegments.contains(query.sql) {
                    steps.append(.unnamed)
                } else if let index = entries.index(forKey: query.sql) {
                    // One hash of the (long) text for both the lookup and the update.
                    entries.values[index].lastUse = useCounter
                    steps.append(.named(entries.values[index].name))
                    hits += 1
                } else {
                    nameCounter += 1
                    let name = "compass_statement_\(nameCounter)"
                    entries[query.sql] = Entry(name: name, lastUse: useCounter)
                    preparedHere.insert(query.sql)
                    steps.append(.prepareAndRun(name))
                    misses += 1
                }
            }
            if !preparedHere.isEmpty { preparedInEarlierSegments.formUnion(preparedHere) }
            plan.steps.append(steps)
        }
        if entries.count > capacity {
            let used = Set(segments.joined().lazy.filter(\.isPrepared).map(\.sql))
            pendingDeallocations += evict(sparing: used)
        }
        if mayDeallocate {
            plan.deallocations = pendingDeallocateAll ? ["ALL"] : pendingDeallocations
            pendingDeallocations = []
            pendingDeallocateAll = false
        }
        return plan
    }

    /// Drops the least recently used entries until the cache fits, never one in `used`.
    private mutating func evict(sparing used: Set<String>) -> [String] {
        let candidates = entries.filter { !used.contains($0.key) }.sorted { $0.value.lastUse < $1.value.lastUse }
        var evicted: [String] = []
        for (sql, entry) in candidates.prefix(entries.count - capacity) {
            entries[sql] = nil
            evicted.append(entry.name)
        }
        return evicted
    }

    /// Nothing exists under `sql`'s name: the server refused to prepare it, or someone else
    /// ran `DEALLOCATE`/`DISCARD` on the connection.
    mutating func forget(_ sql: String) {
        entries[sql] = nil
    }

    /// `sql`'s plan went stale (its result type changed): drop it here and, next time, on the server.
    mutating func statementStale(_ sql: String) {
        if let entry = entries.removeValue(forKey: sql) { pendingDeallocations.append(entry.name) }
    }

    /// Forgets everything (after `DEALLOCATE ALL` or `DISCARD ALL`).
    mutating func removeAll() {
        entries = [:]
        pendingDeallocations = []
        pendingDeallocateAll = false
    }

    /// A cached name turned out missing on the server: someone dropped statements behind the
    /// cache's back (`DISCARD ALL`, `DEALLOCATE ALL`), so none of the names can be trusted. Everything
    /// is prepared again, after a `DEALLOCATE ALL` clears whatever is left.
    mutating func discardAll() {
        removeAll()
        pendingDeallocateAll = true
    }
}
