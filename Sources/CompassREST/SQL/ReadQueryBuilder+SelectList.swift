/// A level's select list, entry by entry: its columns (cast, or aggregated), then what its
/// embeds add. A grouped level groups by the position of every entry that is not an aggregate.
extension ReadQueryBuilder {
    /// One entry of a select list.
    struct Output {
        var sql: SQLBuilder
        /// An aggregate, so not a grouping key.
        var isAggregate = false
    }

    static func selectList(_ plan: ReadPlan) -> [Output] {
        var outputs: [Output] = []
        for column in plan.columns {
            var sql = SQLBuilder()
            if column.isStar {
                sql.append(identifier: plan.alias)
                sql.append(".*")
                outputs.append(Output(sql: sql))
                continue
            }
            let aggregates = column.aggregate != nil && !plan.hoistsAggregates
            if let function = column.aggregate, !plan.hoistsAggregates {
                sql.append(aggregate: function, cast: column.aggregateCast) { sql in sql.append(input: column, of: plan.alias) }
            } else if column.countsRows {
                // Hoisted: the enclosing level counts the rows where this one found a row.
                sql.append("1")
            } else {
                sql.append(input: column, of: plan.alias)
            }
            if let key = column.key {
                sql.append(" AS ")
                sql.append(identifier: key)
            }
            outputs.append(Output(sql: sql, isAggregate: aggregates))
        }
        return outputs + embedOutputs(plan)
    }
}

extension SQLBuilder {
    /// A column's value before any aggregate: the output, cast when asked (`*` for `count()`).
    /// The cast wraps the whole path: `->>key::int` casts the value, not the key.
    mutating func append(input column: PlannedColumn, of alias: String) {
        if column.countsRows { return append("*") }
        guard let cast = column.cast else { return append(output: column, of: alias) }
        append("CAST(")
        append(output: column, of: alias)
        append(" AS ")
        append(cast: cast)
        append(")")
    }

    /// A checked cast's type: a fixed name, or a catalog type's name quoted.
    mutating func append(cast: CastTarget) {
        switch cast {
        case .builtin(let name): append(name)
        case .catalog(let name): append(identifier: name)
        }
    }

    /// `pg_catalog.sum(input)`, then the result's cast when asked.
    mutating func append(aggregate function: AggregateFunction, cast: CastTarget?, input: (inout SQLBuilder) -> Void) {
        if cast != nil { append("CAST(") }
        append(function.sql)
        input(&self)
        append(")")
        if let cast {
            append(" AS ")
            append(cast: cast)
            append(")")
        }
    }
}
