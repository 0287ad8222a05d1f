/// INSERT/UPDATE/DELETE as PostgREST writes them: the JSON body is one parameter, turned
/// into typed rows by `json_to_recordset` with the column types from the schema cache; the
/// statement's rows feed the same read shaping as a GET.
enum MutationQueryBuilder {
    static func statement(_ plan: MutationPlan, schema: String, count: Bool, single: Bool, location: Bool) -> SQLBuilder {
        let table = SQLBuilder.quoted(schema) + "." + SQLBuilder.quoted(plan.table.name)
        var sql = SQLBuilder()
        sql.append("WITH pgrst_source AS (")
        switch plan.kind {
        case .insert(let columns, let onConflict, let resolution, let applyDefaults):
            sql.append("INSERT INTO \(table)")
            if columns.isEmpty {
                sql.append(" SELECT FROM ")
                sql.append(plan.body?.isObject == false ? "json_array_elements(" : "(SELECT ")
                sql.bind(plan.body?.json)
                sql.append(plan.body?.isObject == false ? "::json) AS pgrst_body" : "::json) AS pgrst_body")
            } else {
                sql.append(" (" + columns.map { SQLBuilder.quoted($0.name) }.joined(separator: ", ") + ") SELECT ")
                sql.append(columns.map { "pgrst_body." + SQLBuilder.quoted($0.name) }.joined(separator: ", "))
                sql.append(" FROM ")
                sql.append(bodyRows(plan.body, columns: columns, applyDefaults: applyDefaults))
            }
            if let onConflict, let resolution {
                sql.append(" ON CONFLICT (" + onConflict.map(SQLBuilder.quoted).joined(separator: ", ") + ") ")
                if resolution == .ignoreDuplicates || columns.isEmpty {
                    sql.append("DO NOTHING")
                } else {
                    sql.append("DO UPDATE SET ")
                    sql.append(columns.map { SQLBuilder.quoted($0.name) + " = EXCLUDED." + SQLBuilder.quoted($0.name) }.joined(separator: ", "))
                }
            }
        case .update(let columns):
            if columns.isEmpty {
                // Nothing to set: PostgREST answers with no rows rather than an invalid UPDATE.
                sql.append("SELECT * FROM \(table) WHERE false")
            } else {
                sql.append("UPDATE \(table) SET ")
                sql.append(columns.map { SQLBuilder.quoted($0.name) + " = pgrst_body." + SQLBuilder.quoted($0.name) }.joined(separator: ", "))
                sql.append(" FROM (SELECT * FROM ")
                sql.append(bodyRows(plan.body, columns: columns, applyDefaults: false))
                sql.append(" LIMIT 1) AS pgrst_body")
                appendConditions(plan, to: &sql)
            }
        case .delete:
            sql.append("DELETE FROM \(table)")
            appendConditions(plan, to: &sql)
        }
        if !plan.isEmptyUpdate {
            sql.append(plan.returnsRows ? " RETURNING \(table).*" : " RETURNING 1")
        }
        sql.append(") SELECT ")
        sql.append(count ? "(SELECT pg_catalog.count(*) FROM pgrst_source)" : "NULL::bigint")
        sql.append(" AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ")
        sql.append(plan.returnsRows ? ReadQueryBuilder.body(single: single) : "''::text")
        sql.append(" AS body, ")
        if location, !plan.table.primaryKey.isEmpty {
            sql.append("(SELECT string_agg(pgrst_pk.key || '=' || coalesce('eq.' || pgrst_pk.value, 'is.null'), '&')")
            sql.append(" FROM (SELECT row_to_json(pgrst_row) AS row FROM pgrst_source AS pgrst_row LIMIT 1) AS pgrst_first")
            sql.append(" CROSS JOIN json_each_text(pgrst_first.row) AS pgrst_pk WHERE pgrst_pk.key = ANY(")
            sql.bind(plan.table.primaryKey.postgresArrayText)
            sql.append("::text[]))")
        } else {
            sql.append("NULL::text")
        }
        sql.append(" AS location FROM (")
        if plan.returnsRows {
            sql.append(ReadQueryBuilder.select(plan.read, schema: schema, from: "pgrst_source"))
        } else {
            sql.append("SELECT * FROM pgrst_source")
        }
        sql.append(") AS _postgrest_t")
        return sql
    }

    /// `json_to_record[set]($n::json) AS pgrst_body("col" type, …)`; with `missing=default`
    /// absent keys take the column default first.
    private static func bodyRows(_ body: RequestBody?, columns: [ColumnInfo], applyDefaults: Bool) -> SQLBuilder {
        var sql = SQLBuilder()
        let isObject = body?.isObject ?? true
        let defaults = applyDefaults ? columns.filter { $0.defaultExpression != nil } : []
        if defaults.isEmpty {
            sql.append(isObject ? "json_to_record(" : "json_to_recordset(")
            sql.bind(body?.json)
            sql.append("::json)")
        } else {
            sql.append(isObject ? "jsonb_to_record(" : "jsonb_to_recordset(")
            var defaultsObject = SQLBuilder()
            defaultsObject.append("jsonb_build_object(")
            for (index, column) in defaults.enumerated() {
                if index > 0 { defaultsObject.append(", ") }
                defaultsObject.bind(column.name)
                defaultsObject.append("::text, " + (column.defaultExpression ?? "NULL"))
            }
            defaultsObject.append(")")
            if isObject {
                sql.append(defaultsObject)
                sql.append(" || ")
                sql.bind(body?.json)
                sql.append("::jsonb)")
            } else {
                sql.append("(SELECT jsonb_agg(")
                sql.append(defaultsObject)
                sql.append(" || pgrst_element) FROM jsonb_array_elements(")
                sql.bind(body?.json)
                sql.append("::jsonb) AS pgrst_element))")
            }
        }
        sql.append(" AS pgrst_body(" + columns.map { SQLBuilder.quoted($0.name) + " " + $0.type }.joined(separator: ", ") + ")")
        return sql
    }

    private static func appendConditions(_ plan: MutationPlan, to sql: inout SQLBuilder) {
        guard !plan.conditions.isEmpty else { return }
        sql.append(" WHERE ")
        sql.append(conditions: plan.conditions, of: plan.table.name)
    }
}
