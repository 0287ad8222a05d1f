/// `/rpc/{fn}` as PostgREST calls it: the arguments are one JSON parameter, split into
/// typed values by `json_to_record` and passed by name, so defaults apply to the rest.
enum CallQueryBuilder {
    static func statement(_ plan: CallPlan, schema: String, count: Bool, media: ReplyMediaType, maximumReplyBytes: Int) -> SQLBuilder {
        var sql = SQLBuilder(explaining: media.plan)
        let scalar = plan.function.returnsScalar || plan.function.returnsVoid
        // Materialized, so the call runs once: inlined, the planner copies a STABLE or IMMUTABLE
        // call into every use of its value (the count and the body), and a slow function ran twice.
        sql.append(scalar ? "WITH pgrst_source AS MATERIALIZED (" : "WITH pgrst_source AS (")
        if scalar {
            sql.append("SELECT ")
            appendCall(plan, schema: schema, to: &sql)
            sql.append(" AS pgrst_scalar FROM ")
            appendArguments(plan, to: &sql)
        } else {
            sql.append("SELECT pgrst_call.* FROM ")
            appendArguments(plan, to: &sql)
            sql.append(", LATERAL ")
            appendCall(plan, schema: schema, to: &sql)
            sql.append(" AS pgrst_call")
        }
        sql.openReply()
        let rows: SQLBuilder
        if let read = plan.read {
            rows = ReadQueryBuilder.select(read, schema: schema, from: .pgrstSource)
            if count {
                sql.append("(SELECT pg_catalog.count(*) FROM (")
                sql.append(ReadQueryBuilder.select(read, schema: schema, from: .pgrstSource, includeRange: false))
                sql.append(") AS pgrst_count)")
            } else {
                sql.append("NULL::bigint")
            }
        } else {
            var page = SQLBuilder()
            page.append("SELECT * FROM pgrst_source")
            page.append(range: plan.range)
            rows = page
            sql.append(count ? "(SELECT pg_catalog.count(*) FROM pgrst_source)" : "NULL::bigint")
        }
        sql.append(" AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ")
        if plan.function.returnsVoid {
            sql.append("''::text")
        } else if plan.function.returnsScalar, case .handler(let handler) = media.shape {
            sql.append(handlerBody: handler, schema: schema, scalar: true)
        } else if plan.function.returnsScalar {
            sql.append(
                plan.function.returnsSet && !media.isSingleObject
                    ? "coalesce(json_agg(_postgrest_t.pgrst_scalar), '[]')::text"
                    : "coalesce((json_agg(_postgrest_t.pgrst_scalar)->0)::text, 'null')")
        } else {
            var shaped = media
            if !plan.function.returnsSet, shaped.shape == .array { shaped.shape = .singleObject }
            sql.append(body: shaped, schema: schema)
        }
        sql.append(" AS body, NULL::text AS location FROM (")
        sql.append(rows)
        sql.append(") AS _postgrest_t")
        sql.appendBoundedReply(maximumBytes: maximumReplyBytes)
        return sql
    }

    /// `"schema"."fn"("a" := pgrst_args."a", …)`: arguments by name, so defaults fill the rest.
    private static func appendCall(_ plan: CallPlan, schema: String, to sql: inout SQLBuilder) {
        sql.append(qualifiedName: plan.function.name, in: schema)
        sql.append("(")
        if let whole = plan.wholeBody {
            sql.bind(whole.value)
            sql.append(whole.cast)
            sql.append(")")
            return
        }
        sql.append(plan.passed, separator: ", ") { sql, parameter in
            if parameter.isVariadic { sql.append("VARIADIC ") }
            sql.append(identifier: parameter.name)
            sql.append(" := pgrst_args.")
            sql.append(identifier: parameter.name)
        }
        sql.append(")")
    }

    /// The arguments as one typed row: `json_to_record($n::json) AS pgrst_args("a" type, …)`;
    /// of an array body, its first element (as PostgREST calls a function once).
    private static func appendArguments(_ plan: CallPlan, to sql: inout SQLBuilder) {
        guard !plan.passed.isEmpty else { return sql.append("(SELECT) AS pgrst_args") }
        sql.append("json_to_record(")
        sql.bind(plan.argumentsJSON)
        sql.append(plan.argumentsAreArray ? "::json -> 0) AS pgrst_args(" : "::json) AS pgrst_args(")
        sql.append(columnDefinitions: plan.passed)
        sql.append(")")
    }
}
