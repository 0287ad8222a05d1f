/// INSERT/UPDATE/DELETE as PostgREST writes them: the JSON body is one parameter, turned
/// into typed rows by `json_to_recordset` with the column types from the schema cache; the
/// statement's rows feed the same read shaping as a GET.
enum MutationQueryBuilder {
    /// What a PUT's statement returns in the Location column when it created its row.
    static let createdMarker = "created"
    private static let createdMarkerLiteral: StaticString = "'created'"

    static func statement(
        _ plan: MutationPlan, schema: String, count: Bool, media: ReplyMediaType, location: Bool, maximumReplyBytes: Int
    ) -> SQLBuilder {
        var sql = SQLBuilder(explaining: media.plan)
        func appendTable(_ before: StaticString, _ after: StaticString = "") {
            sql.append(before)
            sql.append(qualifiedName: plan.table.name, in: schema)
            sql.append(after)
        }
        sql.append("WITH pgrst_source AS (")
        switch plan.kind {
        case .insert(let columns, let onConflict, let resolution, let applyDefaults):
            appendTable("INSERT INTO ")
            if columns.isEmpty {
                sql.append(" SELECT FROM ")
                sql.append(plan.body?.isObject == false ? "json_array_elements(" : "(SELECT ")
                sql.bind(plan.body?.json)
                sql.append("::json) AS pgrst_body")
            } else {
                sql.append(" (")
                sql.append(columns, separator: ", ") { sql, column in sql.append(identifier: column.name) }
                sql.append(") SELECT ")
                sql.append(columns, separator: ", ") { sql, column in sql.append(bodyValue: column) }
                sql.append(" FROM ")
                if plan.isSingleUpsert {
                    // PUT: the body's first row, and only if it has the primary key the URL names.
                    sql.append("(SELECT * FROM ")
                    sql.append(bodyRows(plan.body, columns: columns, applyDefaults: applyDefaults))
                    sql.append(" LIMIT 1) AS pgrst_body WHERE ")
                    sql.append(conditions: plan.conditions, of: "pgrst_body")
                } else {
                    sql.append(bodyRows(plan.body, columns: columns, applyDefaults: applyDefaults))
                    // Counts every row offered; DO UPDATE takes back the ones that met a conflict.
                    if plan.countsInserts {
                        sql.append(" WHERE ")
                        sql.append(insertedCounter(plus: true))
                    }
                }
            }
            if let onConflict, let resolution {
                sql.append(" ON CONFLICT (")
                sql.append(onConflict, separator: ", ") { sql, name in sql.append(identifier: name) }
                sql.append(") ")
                if resolution == .ignoreDuplicates || columns.isEmpty {
                    sql.append("DO NOTHING")
                } else {
                    sql.append("DO UPDATE SET ")
                    sql.append(columns, separator: ", ") { sql, column in
                        sql.append(identifier: column.name)
                        sql.append(" = EXCLUDED.")
                        sql.append(identifier: column.name)
                    }
                    if plan.countsInserts {
                        sql.append(" WHERE ")
                        sql.append(insertedCounter(plus: false))
                    }
                }
            }
        case .update(let columns, let applyDefaults):
            if columns.isEmpty {
                // Nothing to set: PostgREST answers with no rows rather than an invalid UPDATE.
                appendTable("SELECT * FROM ", " WHERE false")
            } else {
                appendTable("UPDATE ", " SET ")
                sql.append(columns, separator: ", ") { sql, column in
                    sql.append(identifier: column.name)
                    sql.append(" = ")
                    sql.append(bodyValue: column)
                }
                sql.append(" FROM (SELECT * FROM ")
                sql.append(bodyRows(plan.body, columns: columns, applyDefaults: applyDefaults))
                sql.append(" LIMIT 1) AS pgrst_body")
                appendConditions(plan, to: &sql)
            }
        case .delete:
            appendTable("DELETE FROM ")
            appendConditions(plan, to: &sql)
        }
        if !plan.isEmptyUpdate {
            if !plan.returnsRows {
                sql.append(" RETURNING 1")
            } else if let names = plan.read.sourceColumns(withKey: location ? plan.table.primaryKey : []) {
                // Only what the reply reads: a role granted some columns gets those back.
                sql.append(" RETURNING ")
                if names.isEmpty { sql.append("1") }
                sql.append(names, separator: ", ") { sql, name in
                    // Qualified: an UPDATE's body rows have the same column names.
                    sql.append(qualifiedName: plan.table.name, in: schema)
                    sql.append(".")
                    sql.append(identifier: name)
                }
            } else {
                appendTable(" RETURNING ", ".*")
            }
        }
        sql.openReply()
        sql.append(count ? "(SELECT pg_catalog.count(*) FROM pgrst_source)" : "NULL::bigint")
        sql.append(" AS total_result_set, pg_catalog.count(_postgrest_t) AS page_total, ")
        if plan.returnsRows { sql.append(body: media, schema: schema) } else { sql.append("''::text") }
        sql.append(" AS body, ")
        if plan.isSingleUpsert {
            // Every part of the statement sees the table as it was before it: a row already there was replaced.
            sql.append("CASE WHEN EXISTS (SELECT 1 FROM ")
            sql.append(qualifiedName: plan.table.name, in: schema)
            sql.append(" AS pgrst_old WHERE ")
            sql.append(conditions: plan.conditions, of: "pgrst_old")
            sql.append(") THEN NULL ELSE ")
            sql.append(createdMarkerLiteral)
            sql.append(" END")
        } else if location, !plan.table.primaryKey.isEmpty {
            // The key's filters as `[["id","eq.5"],…]`: the worker percent-encodes them.
            sql.append("(SELECT json_agg(json_build_array(pgrst_pk.key, coalesce('eq.' || pgrst_pk.value, 'is.null')))::text")
            sql.append(" FROM (SELECT row_to_json(pgrst_row) AS row FROM pgrst_source AS pgrst_row LIMIT 1) AS pgrst_first")
            sql.append(" CROSS JOIN json_each_text(pgrst_first.row) AS pgrst_pk WHERE pgrst_pk.key = ANY(")
            sql.bind(plan.table.primaryKey.postgresArrayText)
            sql.append("::text[]))")
        } else {
            sql.append("NULL::text")
        }
        sql.append(" AS location FROM (")
        if plan.returnsRows {
            sql.append(ReadQueryBuilder.select(plan.read, schema: schema, from: .pgrstSource))
        } else {
            sql.append("SELECT * FROM pgrst_source")
        }
        sql.append(") AS _postgrest_t")
        sql.appendBoundedReply(maximumBytes: maximumReplyBytes, countsInserts: plan.countsInserts)
        return sql
    }

    /// `pgrst.inserted` (local to the transaction) moved by one, as a condition that always holds.
    private static func insertedCounter(plus: Bool) -> StaticString {
        plus
            ? "pg_catalog.set_config('pgrst.inserted', (coalesce(nullif(pg_catalog.current_setting('pgrst.inserted', true), '')::int, 0) + 1)::text, true) <> '0'"
            : "pg_catalog.set_config('pgrst.inserted', (coalesce(nullif(pg_catalog.current_setting('pgrst.inserted', true), '')::int, 0) - 1)::text, true) <> '-1'"
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
            defaultsObject.append(defaults, separator: ", ") { sql, column in
                sql.bind(column.name)
                sql.append("::text, ")
                sql.append(defaultOf: column)
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
        sql.append(" AS pgrst_body(")
        // A column with a `json -> domain` representation is read as json, then through its cast.
        sql.append(columnDefinitions: columns.map { column in
            var read = column
            if column.representations.fromJSON != nil { read.type = "json" }
            return read
        })
        sql.append(")")
        return sql
    }

    private static func appendConditions(_ plan: MutationPlan, to sql: inout SQLBuilder) {
        guard !plan.conditions.isEmpty else { return }
        sql.append(" WHERE ")
        sql.append(conditions: plan.conditions, of: plan.table.name)
    }
}

extension SQLBuilder {
    /// `pgrst_body."a"`: a column's value in the body, through its `json -> domain` representation when it has one.
    mutating func append(bodyValue column: ColumnInfo) {
        guard let parser = column.representations.fromJSON else {
            append("pgrst_body.")
            return append(identifier: column.name)
        }
        append(parser) { sql in
            sql.append("pgrst_body.")
            sql.append(identifier: column.name)
        }
    }
}
