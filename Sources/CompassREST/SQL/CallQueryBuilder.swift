/// `/rpc/{fn}` as PostgREST calls it: the arguments are one JSON parameter, split into
/// typed values by `json_to_record` and passed by name, so defaults apply to the rest.
enum CallQueryBuilder {
    static func statement(_ plan: CallPlan, schema: String, count: Bool, single: Bool) -> SQLBuilder {
        let function = SQLBuilder.quoted(schema) + "." + SQLBuilder.quoted(plan.function.name)
        let call = function + "(" + plan.passed.map { SQLBuilder.quoted($0.name) + " := pgrst_args." + SQLBuilder.quoted($0.name) }
            .joined(separator: ", ") + ")"
        var arguments = SQLBuilder()
        arguments.append("json_to_record(")
        arguments.bind(plan.argumentsJSON)
        arguments.append("::json) AS pgrst_args(")
        arguments.append(plan.passed.map { SQLBuilder.quoted($0.name) + " " + $0.type }.joined(separator: ", "))
        arguments.append(")")
        if plan.passed.isEmpty {
            arguments = SQLBuilder()
            arguments.append("(SELECT) AS pgrst_args")
        }

        var sql = SQLBuilder()
        sql.append("WITH pgrst_source AS (")
        if plan.function.returnsScalar || plan.function.returnsVoid {
            sql.append("SELECT \(call) AS pgrst_scalar FROM ")
            sql.append(arguments)
        } else {
            sql.append("SELECT pgrst_call.* FROM ")
            sql.append(arguments)
            sql.append(", LATERAL \(call) AS pgrst_call")
        }
        sql.append(") SELECT ")
        let rows: SQLBuilder
        if let read = plan.read {
            rows = ReadQueryBuilder.select(read, schema: schema, from: "pgrst_source")
            if count {
                sql.append("(SELECT pg_catalog.count(*) FROM (")
                sql.append(ReadQueryBuilder.select(read, schema: schema, from: "pgrst_source", includeRange: false))
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
        } else if plan.function.returnsScalar {
            sql.append(
                plan.function.returnsSet && !single
                    ? "coalesce(json_agg(_postgrest_t.pgrst_scalar), '[]')::text"
                    : "coalesce((json_agg(_postgrest_t.pgrst_scalar)->0)::text, 'null')")
        } else {
            sql.append(ReadQueryBuilder.body(single: single || !plan.function.returnsSet))
        }
        sql.append(" AS body, NULL::text AS location FROM (")
        sql.append(rows)
        sql.append(") AS _postgrest_t")
        return sql
    }
}
