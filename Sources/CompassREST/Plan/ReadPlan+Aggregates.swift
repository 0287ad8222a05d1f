/// Where a level's aggregates are applied. A level groups its rows when it (or a to-one spread
/// inside it) asks for an aggregate; a to-one spread hands its aggregates up to the level it
/// spreads into, so `...invoices(total.sum())` sums over the parent's rows, as PostgREST hoists them.
extension ReadPlan {
    /// The keys of this level's rows that an enclosing level aggregates, and how: a to-one
    /// spread's own aggregates and those of the to-one spreads inside it.
    var hoistedAggregates: [String: (function: AggregateFunction, cast: CastTarget?)] {
        guard hoistsAggregates else { return [:] }
        var hoisted: [String: (function: AggregateFunction, cast: CastTarget?)] = [:]
        for column in columns {
            if let function = column.aggregate, let key = column.key { hoisted[key] = (function, column.aggregateCast) }
        }
        for embed in embeds where embed.isSpread && embed.relationship.isToOne {
            hoisted.merge(embed.plan.hoistedAggregates) { _, inner in inner }
        }
        return hoisted
    }

    /// Whether this level, or a to-one spread it holds, asks for an aggregate.
    var containsAggregates: Bool {
        columns.contains { $0.aggregate != nil }
            || embeds.contains { $0.isSpread && $0.relationship.isToOne && $0.plan.containsAggregates }
    }

    /// Whether this level applies aggregates and so groups its rows by everything else it selects.
    var isGrouped: Bool { !hoistsAggregates && containsAggregates }
}

extension ReadPlan {
    /// Whether a grouped level selects anything besides aggregates: what its rows are grouped by.
    var groupsByOtherOutputs: Bool {
        var aggregated = Set(columns.compactMap { $0.aggregate == nil ? nil : $0.key })
        for embed in embeds where embed.isSpread && embed.relationship.isToOne {
            aggregated.formUnion(embed.plan.hoistedAggregates.keys)
        }
        return outputKeys.contains { !aggregated.contains($0) }
    }
}
