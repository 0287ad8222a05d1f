extension SubscriptionRegistry {
    /// Bindings evaluated between two yields of the fan-out task, so a batch against many
    /// channels shares the threads with everything else.
    static let bindingsPerYield = 4096

    /// For each change, the channels whose bindings want it (type, table, filter), with the ids.
    ///
    /// The candidates are taken under the registry's lock; their bindings are evaluated
    /// outside it, yielding now and then (see ``candidates(for:)``).
    func match(_ changes: [ParsedChange]) async -> [[ChannelMatch]] {
        let candidates = candidates(for: changes)
        var result: [[ChannelMatch]] = []
        result.reserveCapacity(changes.count)
        var sinceYield = 0
        for (parsed, channels) in zip(changes, candidates) {
            var values = FilterValues(parsed)
            var matches: [ChannelMatch] = []
            matches.reserveCapacity(channels.count)
            for joined in channels {
                var ids: [Int] = []
                for binding in joined.bindingsByTable[parsed.table.name] ?? [] {
                    sinceYield += 1
                    guard binding.changeType == nil || binding.changeType == parsed.change.type else { continue }
                    // NULL and absent columns, and values that are not of the column's type, never pass.
                    if let filter = binding.filter, !values.pass(filter) { continue }
                    ids.append(binding.id)
                }
                if !ids.isEmpty { matches.append(ChannelMatch(joined: joined, ids: Self.eachOnce(ids))) }
                if sinceYield >= Self.bindingsPerYield {
                    sinceYield = 0
                    await Task.yield()
                }
            }
            result.append(matches)
        }
        return result
    }

    /// `ids` without repeats, in order. Distinct bindings share an id only when their
    /// parameters hash alike; a channel's bindings are distinct already.
    private static func eachOnce(_ ids: [Int]) -> [Int] {
        guard ids.count > 1 else { return ids }
        var seen = Set<Int>(minimumCapacity: ids.count)
        return ids.filter { seen.insert($0).inserted }
    }
}

/// A change's filterable values, typed per column once rather than once per binding.
private struct FilterValues {
    let parsed: ParsedChange
    private var typedValues: [Key: RealtimeFilterValue?] = [:]

    private struct Key: Hashable {
        var column: String
        var kind: RealtimeValueKind
    }

    init(_ parsed: ParsedChange) {
        self.parsed = parsed
    }

    /// Whether the change's row passes `filter`, read as the filter was typed when its channel
    /// joined; for an enum label added since, both sides as the table's labels are now.
    mutating func pass(_ filter: CompiledRealtimeFilter) -> Bool {
        if let value = typed(filter.column, as: filter.kind) { return filter.matches(value) }
        // Sort orders are compared only within one version of the labels: Postgres renumbers
        // them when a label added between two finds no room.
        guard case .enumeration = filter.kind, let current = parsed.table.column(named: filter.column)?.kind,
            case .enumeration = current, current != filter.kind,
            let value = typed(filter.column, as: current), let retyped = filter.retyped(as: current)
        else { return false }
        return retyped.matches(value)
    }

    /// The column's value read as `kind`; nil for NULL, an absent column or a value of another type.
    mutating func typed(_ column: String, as kind: RealtimeValueKind) -> RealtimeFilterValue? {
        let key = Key(column: column, kind: kind)
        if let known = typedValues[key] { return known }
        let value = parsed.filterValue(column).flatMap { RealtimeFilterValue(json: $0, kind: kind) }
        typedValues[key] = .some(value)
        return value
    }
}
