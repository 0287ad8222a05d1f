import Testing

@testable import CompassREST

/// The statement builder: SQL text is literal, quoted or catalog text; values are `$n`
/// parameters; whole statements keep the exact text PostgREST-shaped clients and the
/// prepared-statement cache were built against.
@Suite("SQL builder")
struct SQLBuilderTests {
    @Test func identifiersAreQuotedAndValuesNumbered() {
        var sql = SQLBuilder()
        sql.append("SELECT ")
        sql.append(column: #"we"ird"#, of: "t")
        sql.append(" FROM ")
        sql.append(qualifiedName: "my table", in: "public")
        sql.append(" WHERE a = ")
        sql.bind("x")
        sql.append(" AND b = ")
        sql.bind(nil)
        #expect(sql.text == #"SELECT "t"."we""ird" FROM "public"."my table" WHERE a = $1 AND b = $2"#)
        #expect(sql.binds == ["x", nil])
    }

    @Test func appendingAStatementRenumbersItsParameters() {
        var outer = SQLBuilder()
        outer.append("SELECT ")
        outer.bind("a")
        var inner = SQLBuilder()
        inner.append(" + ")
        inner.bind("b")
        inner.append(#" + "$1""#)
        outer.append(inner)
        #expect(outer.text == #"SELECT $1 + $2 + "$1""#)
        #expect(outer.binds == ["a", "b"])
    }

    @Test func listsAndCatalogText() {
        let columns = [
            ColumnInfo(name: "id", type: "uuid", isNullable: false, defaultExpression: "gen_random_uuid()"),
            ColumnInfo(name: "tags", type: "text[]", isNullable: true, defaultExpression: nil),
        ]
        var sql = SQLBuilder()
        sql.append(columnDefinitions: columns)
        sql.append("; ")
        sql.append(columns, separator: " | ") { sql, column in sql.append(defaultOf: column) }
        #expect(sql.text == #""id" uuid, "tags" text[]; gen_random_uuid() | NULL"#)
        #expect(sql.binds.isEmpty)
    }

    @Test func castsNameAFixedTypeOrOneTheCatalogHas() throws {
        let catalog: Set<String> = ["tsvector", "mood", "_mood"]
        func sql(_ name: String) throws -> String {
            var sql = SQLBuilder()
            sql.append(cast: try CastType.checked(name, catalogTypes: catalog))
            return sql.text
        }
        #expect(try sql("TEXT") == "text")
        #expect(try sql("double precision") == "double precision")
        #expect(try sql("_int4") == "_int4")
        #expect(try sql("TSVector") == #""tsvector""#)
        #expect(try sql("_mood") == #""_mood""#)
        #expect(throws: RESTError.undefinedType("regclass")) { try CastType.checked("regclass", catalogTypes: catalog) }
        #expect(throws: RESTError.undefinedType("mood\"; drop")) { try CastType.checked("mood\"; drop", catalogTypes: catalog) }
    }

    @Test func aToManyInnerEmbedKeepsItsText() throws {
        let parameters = try QueryParameters(query: "select=name,interactions!inner(content)&interactions.content=eq.x")
        var planner = ReadPlanner(cache: SQLBindingTests.cache)
        let plan = try planner.plan(table: try SQLBindingTests.cache.table(named: "schools"), parameters: parameters, range: .all)
        let statement = ReadQueryBuilder.statement(plan, schema: "public", count: false, media: .json, maximumReplyBytes: 1 << 24)
        #expect(
            statement.text
                == #"WITH pgrst_source AS (SELECT "schools"."name" AS "name", COALESCE("pgrst_1"."pgrst_1", '[]'::jsonb) AS"#
                    + #" "interactions" FROM "public"."schools" AS "schools" INNER JOIN LATERAL (SELECT json_agg("pgrst_1".*)::jsonb AS"#
                    + #" "pgrst_1" FROM (SELECT "interactions_1"."content" AS "content" FROM "public"."interactions" AS "interactions_1" WHERE"#
                    + #" "interactions_1"."school_id" = "schools"."id" AND ("interactions_1"."content" = $1)) AS "pgrst_1") AS "pgrst_1" ON"#
                    + #" "pgrst_1"."pgrst_1" IS NOT NULL), pgrst_reply AS (SELECT NULL::bigint AS total_result_set,"#
                    + #" pg_catalog.count(_postgrest_t) AS page_total, coalesce(json_agg(_postgrest_t), '[]')::text AS body, NULL::text AS location FROM (SELECT * FROM"#
                    + #" pgrst_source) AS _postgrest_t"# + Self.boundedReply(bind: 2))
        #expect(statement.binds == ["x", "16777216"])
    }

    @Test func anInsertWithColumnDefaultsKeepsItsText() throws {
        let body = #"[{"id":"i","content":"x"}]"#
        let plan = try MutationPlanner.plan(
            method: .post, table: try SQLBindingTests.cache.table(named: "interactions"), cache: SQLBindingTests.cache,
            parameters: try QueryParameters(query: ""), preferences: try Preferences(headerValues: ["return=representation", "missing=default"]),
            body: try RequestBody(json: body, columns: nil), requiresFilters: true)
        let statement = MutationQueryBuilder.statement(
            plan, schema: "public", count: false, media: ReplyMediaType(shape: .singleObject), location: false, maximumReplyBytes: 1 << 24)
        #expect(
            statement.text
                == #"WITH pgrst_source AS (INSERT INTO "public"."interactions" ("content", "id") SELECT pgrst_body."content","#
                    + #" pgrst_body."id" FROM jsonb_to_recordset((SELECT jsonb_agg(jsonb_build_object($1::text, gen_random_uuid()) ||"#
                    + #" pgrst_element) FROM jsonb_array_elements($2::jsonb) AS pgrst_element)) AS pgrst_body("content" text, "id""#
                    + #" uuid) RETURNING "public"."interactions".*), pgrst_reply AS (SELECT NULL::bigint AS total_result_set,"#
                    + #" pg_catalog.count(_postgrest_t) AS page_total, coalesce((json_agg(_postgrest_t)->0)::text, 'null') AS body,"#
                    + #" NULL::text AS location FROM (SELECT "interactions".* FROM pgrst_source AS "interactions") AS _postgrest_t"# + Self.boundedReply(bind: 3))
        #expect(statement.binds == ["id", body, "16777216"])
    }

    @Test func aCallReturningTableRowsKeepsItsText() throws {
        var cache = SQLBindingTests.cache
        cache.functions["mine"] = [FunctionInfo(
            name: "mine", parameters: [.init(name: "who", type: "uuid", hasDefault: false)], returnsSet: true, returnsScalar: false,
            returnsVoid: false, returnTable: "interactions", volatility: .stable)]
        let parameters = try QueryParameters(query: "select=id,schools(name)&content=eq.z&limit=4")
        let range = try RowRange(offset: parameters.offsets[[]], limit: parameters.limits[[]], rangeHeader: nil)
        let plan = try CallPlanner.plan(
            name: "mine", arguments: .json(text: #"{"who":"x"}"#, keys: ["who"], isArray: false), isPost: true, cache: cache,
            parameters: parameters, range: range)
        let statement = CallQueryBuilder.statement(plan, schema: "public", count: false, media: ReplyMediaType(shape: .singleObject), maximumReplyBytes: 1 << 24)
        #expect(
            statement.text
                == #"WITH pgrst_source AS (SELECT pgrst_call.* FROM json_to_record($1::json) AS pgrst_args("who" uuid), LATERAL"#
                    + #" "public"."mine"("who" := pgrst_args."who") AS pgrst_call), pgrst_reply AS (SELECT NULL::bigint AS total_result_set,"#
                    + #" pg_catalog.count(_postgrest_t) AS page_total, coalesce((json_agg(_postgrest_t)->0)::text, 'null') AS body,"#
                    + #" NULL::text AS location FROM (SELECT "interactions"."id" AS "id", row_to_json("pgrst_1".*)::jsonb AS "schools""#
                    + #" FROM pgrst_source AS "interactions" LEFT JOIN LATERAL (SELECT "schools_1"."name" AS "name" FROM"#
                    + #" "public"."schools" AS "schools_1" WHERE "schools_1"."id" = "interactions"."school_id") AS "pgrst_1" ON TRUE WHERE"#
                    + #" ("interactions"."content" = $2) LIMIT $3) AS _postgrest_t"# + Self.boundedReply(bind: 4))
        #expect(statement.binds == [#"{"who":"x"}"#, "z", "4", "16777216"])
    }

    /// How every statement ends: the reply row, its body withheld past the limit bound as `$bind`.
    static func boundedReply(bind: Int) -> String {
        ") SELECT pgrst_reply.total_result_set, pgrst_reply.page_total, CASE WHEN pg_catalog.octet_length(pgrst_reply.body) <="
            + " $\(bind)::bigint THEN pgrst_reply.body END AS body, pgrst_reply.location, pg_catalog.octet_length(pgrst_reply.body)"
            + " AS body_bytes, pg_catalog.current_setting('response.headers', true) AS response_headers,"
            + " pg_catalog.current_setting('response.status', true) AS response_status FROM pgrst_reply"
    }
}
