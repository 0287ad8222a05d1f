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
        var outputs = 0
        func separator() {
            if outputs > 0 { sql.append(", ") }
            outputs += 1
        }
        for column in plan.columns {
            separator()
            if column.isStar {
                sql.append(identifier: plan.alias)
                sql.append(".*")
                continue
            }
            sql.append(field: column.field, of: plan.alias)
            if let cast = column.cast {
                sql.append("::")
                sql.append(cast)
            }
            if let key = column.key {
                sql.append(" AS ")
                sql.append(identifier: key)
            }
        }
        for embed in plan.embeds {
            separator()
            let alias = embed.plan.alias
            if embed.relationship.isToOne {
                sql.append("row_to_json(")
                sql.append(identifier: alias)
                sql.append(".*)::jsonb AS ")
            } else {
                sql.append("COALESCE(")
                sql.append(column: alias, of: alias)
                sql.append(", '[]'::jsonb) AS ")
            }
            sql.append(identifier: embed.name)
        }
        if outputs == 0 { sql.append("NULL") }
        sql.append(" FROM ")
        switch source {
        case .table: sql.append(qualifiedName: plan.table.name, in: schema)
        case .pgrstSource: sql.append("pgrst_source")
        }
        sql.append(" AS ")
        sql.append(identifier: plan.alias)
        for embed in plan.embeds {
            sql.append(join(embed, schema: schema, parentAlias: plan.alias))
        }
        var conditions: [SQLBuilder] = []
        if let parent {
            var join = SQLBuilder()
            join.append(parent.relationship.columns, separator: " AND ") { sql, pair in
                sql.append(column: pair.1, of: plan.alias)
                sql.append(" = ")
                sql.append(column: pair.0, of: parent.alias)
            }
            conditions.append(join)
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
            let alias = term.relation.flatMap { plan.embed(named: $0)?.plan.alias } ?? plan.alias
            sql.append(field: term.field, of: alias)
            if let direction = term.direction { sql.append(direction == .asc ? " ASC" : " DESC") }
            if let nulls = term.nulls { sql.append(nulls == .nullsfirst ? " NULLS FIRST" : " NULLS LAST") }
        }
    }

    /// `LEFT|INNER JOIN LATERAL (…) AS alias ON …` for one embed.
    private static func join(_ embed: EmbedPlan, schema: String, parentAlias: String) -> SQLBuilder {
        let alias = embed.plan.alias
        let child = select(embed.plan, schema: schema, from: .table, parent: (parentAlias, embed.relationship))
        var sql = SQLBuilder()
        sql.append(embed.isInner ? " INNER JOIN LATERAL (" : " LEFT JOIN LATERAL (")
        if embed.relationship.isToOne {
            sql.append(child)
            sql.append(") AS ")
            sql.append(identifier: alias)
            sql.append(" ON TRUE")
        } else {
            sql.append("SELECT json_agg(")
            sql.append(identifier: alias)
            sql.append(")::jsonb AS ")
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
        }
        return sql
    }

    /// The whole read: the page in a CTE, then the total (when counted), the page's row
    /// count and the body as JSON text (an array, or the single object `vnd.pgrst.object` asks for),
    /// the body withheld past `maximumReplyBytes`.
    static func statement(_ plan: ReadPlan, schema: String, count: Bool, single: Bool, maximumReplyBytes: Int) -> SQLBuilder {
        var sql = SQLBuilder()
        sql.append("WITH pgrst_source AS (")
        sql.append(select(plan, schema: schema, from: .table))
        sql.openReply()
        if count {
            sql.append("(SELECT pg_catalog.count(*) FROM (")
            sql.append(select(plan, schema: schema, from: .table, includeRange: false))
            sql.append(") AS pgrst_count)")
        } else {
            sql.append("NULL::bigint")
        }
        sql.append(" AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ")
        sql.append(body(single: single))
        sql.append(" AS body, NULL::text AS location FROM (SELECT * FROM pgrst_source) AS _postgrest_t")
        sql.appendBoundedReply(maximumBytes: maximumReplyBytes)
        return sql
    }

    /// The body aggregate: `[]` when empty, or the first row (`null` when none) for a single object.
    static func body(single: Bool) -> StaticString {
        single
            ? "coalesce((json_agg(_postgrest_t)->0)::text, 'null')"
            : "coalesce(json_agg(_postgrest_t), '[]')::text"
    }
}
