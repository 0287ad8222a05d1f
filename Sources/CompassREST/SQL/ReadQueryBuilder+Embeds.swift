/// Embedded resources: what each adds to its parent's select list, and the lateral join that
/// reads it. A to-many embed's join aggregates its rows; its `"alias"."alias"` column is NULL
/// when there are none (what `!inner` and `embed=is.null` test).
extension ReadQueryBuilder {
    /// The parent's select-list entries for its embeds: `row_to_json` of a to-one row, the
    /// aggregate of a to-many one, or for a spread the embed's own keys (`"alias".*` when
    /// to-one, one array per key when to-many). Embeds that select nothing add nothing.
    static func embedOutputs(_ plan: ReadPlan) -> [Output] {
        var outputs: [Output] = []
        for embed in plan.embeds where !embed.isHidden {
            let alias = embed.joinAlias
            switch (embed.isSpread, embed.relationship.isToOne) {
            case (true, true) where plan.isGrouped:
                // Key by key: the spread's hoisted aggregates are applied here, the rest group.
                let hoisted = embed.plan.hoistedAggregates
                for key in embed.outputKeys {
                    var sql = SQLBuilder()
                    if let (function, cast) = hoisted[key] {
                        sql.append(aggregate: function, cast: cast) { sql in sql.append(column: key, of: alias) }
                    } else {
                        sql.append(column: key, of: alias)
                    }
                    sql.append(" AS ")
                    sql.append(identifier: key)
                    outputs.append(Output(sql: sql, isAggregate: hoisted[key] != nil))
                }
            case (true, true):
                var sql = SQLBuilder()
                sql.append(identifier: alias)
                sql.append(".*")
                outputs.append(Output(sql: sql))
            case (true, false):
                for key in embed.outputKeys {
                    var sql = SQLBuilder()
                    sql.append("COALESCE(")
                    sql.append(column: key, of: alias)
                    sql.append(", '[]'::json) AS ")
                    sql.append(identifier: key)
                    outputs.append(Output(sql: sql))
                }
            case (false, true):
                var sql = SQLBuilder()
                sql.append("row_to_json(")
                sql.append(identifier: alias)
                sql.append(".*)::jsonb AS ")
                sql.append(identifier: embed.name)
                outputs.append(Output(sql: sql))
            case (false, false):
                var sql = SQLBuilder()
                sql.append("COALESCE(")
                sql.append(column: alias, of: alias)
                sql.append(", '[]'::jsonb) AS ")
                sql.append(identifier: embed.name)
                outputs.append(Output(sql: sql))
            }
        }
        return outputs
    }

    /// `LEFT|INNER JOIN LATERAL (…) AS alias ON …` for one embed.
    static func join(_ embed: EmbedPlan, schema: String, parentAlias: String) -> SQLBuilder {
        let alias = embed.joinAlias
        let child = select(embed.plan, schema: schema, from: .table, parent: (parentAlias, embed.relationship))
        var sql = SQLBuilder()
        sql.append(embed.isInner ? " INNER JOIN LATERAL (" : " LEFT JOIN LATERAL (")
        if embed.relationship.isToOne {
            sql.append(child)
            sql.append(") AS ")
            sql.append(identifier: alias)
            sql.append(" ON TRUE")
            return sql
        }
        sql.append("SELECT ")
        if embed.isSpread {
            // One array per key, and a marker that is NULL when no row matched.
            for key in embed.outputKeys {
                sql.append("json_agg(")
                sql.append(column: key, of: alias)
                sql.append(") AS ")
                sql.append(identifier: key)
                sql.append(", ")
            }
            sql.append("bool_or(TRUE) AS ")
        } else {
            // `alias.*`: the whole row, even when the embed selects a column named like its alias.
            sql.append("json_agg(")
            sql.append(identifier: alias)
            sql.append(".*)::jsonb AS ")
        }
        sql.append(identifier: alias)
        sql.append(" FROM (")
        sql.append(child)
        sql.append(") AS ")
        sql.append(identifier: alias)
        sql.append(") AS ")
        sql.append(identifier: alias)
        sql.append(" ON ")
        if embed.isInner {
            sql.append(column: alias, of: alias)
            sql.append(" IS NOT NULL")
        } else {
            sql.append("TRUE")
        }
        return sql
    }
}
