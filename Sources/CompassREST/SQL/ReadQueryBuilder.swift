/// Turns a ``ReadPlan`` into SQL the way PostgREST shapes it: one SELECT per level,
/// to-one embeds as `row_to_json` of a lateral subquery, to-many embeds as `json_agg`,
/// and the response body built by Postgres as JSON text.
enum ReadQueryBuilder {
    /// Where a level reads its rows.
    enum Source {
        /// The level's table in the exposed schema.
        case table
        /// The `pgrst_source` CTE that a mutation's or a call's statement fills.
        case pgrstSource
    }

    /// `SELECT … FROM source AS alias …` for one level; `parent` ties an embed to its parent row.
    static func select(
        _ plan: ReadPlan, schema: String, from source: Source, parent: (alias: String, relationship: Relationship)? = nil,
        includeRange: Bool = true
    ) -> SQLBuilder {
        var sql = SQLBuilder()
        sql.append("SELECT ")
        let outputs = selectList(plan)
        sql.append(outputs, separator: ", ") { sql, output in sql.append(output.sql) }
        if outputs.isEmpty { sql.append("NULL") }
        sql.append(" FROM ")
        switch (source, parent?.relationship.function) {
        case (.table, let function?): sql.append(function, of: parent!.alias)
        case (.table, nil): sql.append(qualifiedName: plan.table.name, in: schema)
        case (.pgrstSource, _): sql.append("pgrst_source")
        }
        sql.append(" AS ")
        sql.append(identifier: plan.alias)
        if let junction = parent?.relationship.junction {
            sql.append(junctionJoin(junction, schema: schema, alias: plan.alias))
        }
        for embed in plan.embeds {
            sql.append(join(embed, schema: schema, parentAlias: plan.alias))
        }
        var conditions: [SQLBuilder] = []
        if let parent, parent.relationship.function == nil {
            conditions.append(parentLink(parent.relationship, alias: plan.alias, parentAlias: parent.alias))
        }
        if !plan.conditions.isEmpty {
            var filters = SQLBuilder()
            filters.append(conditions: plan.conditions, of: plan.alias)
            conditions.append(filters)
        }
        if !conditions.isEmpty {
            sql.append(" WHERE ")
            sql.append(conditions, separator: " AND ") { sql, condition in sql.append(condition) }
        }
        if plan.isGrouped {
            // By position: a JSON path's keys are parameters, which Postgres would not match twice.
            let groups = outputs.indices.filter { !outputs[$0].isAggregate }
            if !groups.isEmpty {
                sql.append(" GROUP BY ")
                sql.append(groups, separator: ", ") { sql, index in sql.append(ordinal: index + 1) }
            }
        }
        if includeRange {
            appendOrder(plan, to: &sql)
            sql.append(range: plan.range)
        }
        return sql
    }

    private static func appendOrder(_ plan: ReadPlan, to sql: inout SQLBuilder) {
        guard !plan.order.isEmpty else { return }
        sql.append(" ORDER BY ")
        sql.append(plan.order, separator: ", ") { sql, term in
            let alias = term.relation.flatMap { plan.embed(named: $0)?.joinAlias } ?? plan.alias
            sql.append(field: term.field, of: alias)
            if let direction = term.direction { sql.append(direction == .asc ? " ASC" : " DESC") }
            if let nulls = term.nulls { sql.append(nulls == .nullsfirst ? " NULLS FIRST" : " NULLS LAST") }
        }
    }

    /// `EXPLAIN (FORMAT JSON)` of the read's rows without their window: `count=planned`'s total,
    /// as PostgREST estimates it.
    static func rowEstimate(_ plan: ReadPlan, schema: String) -> SQLBuilder {
        var sql = SQLBuilder()
        sql.append("EXPLAIN (FORMAT JSON) ")
        sql.append(select(plan, schema: schema, from: .table, includeRange: false))
        return sql
    }

    /// The whole read: the page in a CTE, then the total (when counted), the page's row
    /// count and the body as JSON text (an array, or the single object `vnd.pgrst.object` asks for),
    /// the body withheld past `maximumReplyBytes`.
    /// `countLimit` stops the count there (count=estimated under a row cap).
    static func statement(
        _ plan: ReadPlan, schema: String, count: Bool, countLimit: Int? = nil, media: ReplyMediaType, maximumReplyBytes: Int
    ) -> SQLBuilder {
        var sql = SQLBuilder(explaining: media.plan)
        sql.append("WITH pgrst_source AS (")
        sql.append(select(plan, schema: schema, from: .table))
        sql.openReply()
        if count {
            sql.append("(SELECT pg_catalog.count(*) FROM (")
            sql.append(select(plan, schema: schema, from: .table, includeRange: false))
            if let countLimit { sql.append(range: RowRange(offset: 0, limit: countLimit)) }
            sql.append(") AS pgrst_count)")
        } else {
            sql.append("NULL::bigint")
        }
        sql.append(" AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ")
        sql.append(body: media, schema: schema)
        sql.append(" AS body, NULL::text AS location FROM (SELECT * FROM pgrst_source) AS _postgrest_t")
        sql.appendBoundedReply(maximumBytes: maximumReplyBytes)
        return sql
    }
}
