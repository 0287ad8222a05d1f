import Foundation
import Testing

@testable import CompassREST

/// SQL generation never splices a request's values, and refuses names the schema cache does not know.
@Suite("SQL binds every value")
struct SQLBindingTests {
    static let cache = SchemaCache(
        schema: "public",
        tables: [
            "interactions": TableInfo(
                name: "interactions", isView: false,
                columns: [
                    ColumnInfo(name: "id", type: "uuid", isNullable: false, defaultExpression: "gen_random_uuid()"),
                    ColumnInfo(name: "logged_by", type: "uuid", isNullable: false, defaultExpression: nil),
                    ColumnInfo(name: "school_id", type: "uuid", isNullable: true, defaultExpression: nil),
                    ColumnInfo(name: "content", type: "text", isNullable: true, defaultExpression: nil),
                    ColumnInfo(name: "changes", type: "jsonb", isNullable: true, defaultExpression: nil),
                ],
                primaryKey: ["id"], uniqueKeys: [["id"]]),
            "schools": TableInfo(
                name: "schools", isView: false,
                columns: [
                    ColumnInfo(name: "id", type: "uuid", isNullable: false, defaultExpression: nil),
                    ColumnInfo(name: "name", type: "text", isNullable: false, defaultExpression: nil),
                ],
                primaryKey: ["id"], uniqueKeys: [["id"]]),
        ],
        relationships: [
            "interactions": [Relationship(
                table: "interactions", foreignTable: "schools", constraint: "interactions_school_id_fkey",
                columns: [("school_id", "id")], cardinality: .manyToOne, holdsForeignKey: true)],
            "schools": [Relationship(
                table: "schools", foreignTable: "interactions", constraint: "interactions_school_id_fkey",
                columns: [("id", "school_id")], cardinality: .oneToMany, holdsForeignKey: false)],
        ],
        functions: [:])

    static let hostile = [
        "'; DROP TABLE interactions; --", #"" OR 1=1 --"#, "$1 OR true", "x' OR '1'='1", "\\'; SELECT pg_sleep 10; --",
    ]

    /// The statement a GET would run for `query`.
    func readStatement(_ query: String) throws -> SQLBuilder {
        let parameters = try QueryParameters(query: query)
        var planner = ReadPlanner(cache: Self.cache)
        let range = try RowRange(offset: parameters.offsets[[]], limit: parameters.limits[[]], rangeHeader: nil)
        let plan = try planner.plan(table: try Self.cache.table(named: "interactions"), parameters: parameters, range: range)
        return ReadQueryBuilder.statement(plan, schema: "public", count: true, media: .json, maximumReplyBytes: 1 << 24)
    }

    @Test(arguments: hostile)
    func valuesOnlyEverBecomeParameters(value: String) throws {
        let encoded = value.addingPercentEncodingForQuery
        for query in [
            "content=eq.\(encoded)", "content=like.\(encoded)", "content=in.(a,\(encoded))", "content=not.ilike.\(encoded)",
            "or=(content.eq.\(encoded),content.is.null)", "content=fts(english).\(encoded)",
            "select=*,schools(*)&schools.name=eq.\(encoded)", "limit=5&offset=2&content=isdistinct.\(encoded)",
        ] {
            let statement = try readStatement(query)
            #expect(!statement.text.contains(value), "the value reached the SQL text for \(query)")
            #expect(statement.binds.contains { $0?.contains(value) == true }, "the value is not a parameter for \(query)")
        }
    }

    @Test func insertAndUpdateBodiesAreOneParameter() throws {
        let body = #"{"content":"'; DROP TABLE interactions; --","logged_by":"A1000000-0000-4000-8000-000000000003"}"#
        let parameters = try QueryParameters(query: "id=eq.\("' OR true --".addingPercentEncodingForQuery)")
        for method in [RESTMethod.post, .patch] {
            let plan = try MutationPlanner.plan(
                method: method, table: try Self.cache.table(named: "interactions"), cache: Self.cache, parameters: parameters,
                preferences: try Preferences(headerValues: ["return=representation"]),
                body: try RequestBody(json: body, columns: nil), requiresFilters: true)
            let statement = MutationQueryBuilder.statement(
                plan, schema: "public", count: false, media: .json, location: true, maximumReplyBytes: 1 << 24)
            #expect(!statement.text.contains("DROP TABLE"))
            #expect(!statement.text.contains("OR true"))
            #expect(statement.binds.contains(body))
            #expect(statement.text.contains(#"AS pgrst_body("content" text, "logged_by" uuid)"#))
        }
    }

    @Test(arguments: [
        ("select=id;drop table interactions", "PGRST100"),
        ("select=\"id\\\"; DROP TABLE interactions; --\"", "42703"),
        ("\"content\\\" = '' OR 1=1 --\"=eq.1", "PGRST100"),
        ("\"content\\\" OR 1%3D1 --\"=eq.1", "42703"),
        ("order=\"id\\\" DESC; DROP TABLE x\".desc", "42703"),
        ("select=id,nope:schools!\"x\\\"; DROP\"(*)", "PGRST200"),
        ("select=id::text;drop", "PGRST100"),
        ("select=id::pg_catalog.text", "PGRST100"),
        ("select=id::regclass", "42704"),
        ("select=*&\"ghost\".content=eq.1", "PGRST108"),
    ])
    func hostileNamesAreRefusedBeforeSQL(query: String, code: String) {
        #expect {
            _ = try readStatement(query)
        } throws: { error in
            (error as? RESTError)?.code == code
        }
    }

    @Test func unknownTableIsPGRST205WithAHint() {
        #expect {
            _ = try Self.cache.table(named: "interaction")
        } throws: { error in
            guard let error = error as? RESTError else { return false }
            return error.status == 404 && error.code == "PGRST205"
                && error.message == "Could not find the table 'public.interaction' in the schema cache"
                && error.hint == "Perhaps you meant the table 'public.interactions'"
        }
        #expect(throws: RESTError.self) { _ = try Self.cache.table(named: "interactions\"; DROP TABLE x; --") }
    }

    @Test func identifiersAreQuotedFromTheCache() throws {
        let statement = try readStatement("select=id,school:schools(name)&logged_by=eq.A1&order=content.desc.nullslast&limit=50")
        #expect(statement.text.contains(#""interactions"."logged_by" = $"#))
        #expect(statement.text.contains(#"ORDER BY "interactions"."content" DESC NULLS LAST"#))
        #expect(statement.text.contains(#"LEFT JOIN LATERAL (SELECT "schools_1"."name" AS "name" FROM "public"."schools" AS "schools_1" WHERE "schools_1"."id" = "interactions"."school_id""#))
        #expect(statement.binds.contains("A1"))
        #expect(statement.binds.contains("50"))
        let path = try readStatement(#"select=k:changes->"a'); DROP TABLE x; --"&changes->>k=eq.v"#.replacingOccurrences(of: " ", with: "%20"))
        #expect(!path.text.contains("DROP"))
        #expect(path.binds.contains("a'); DROP TABLE x; --"))
        #expect(path.text.contains(#""interactions"."changes"->($"#))
    }
}

extension String {
    /// Percent-encodes everything but unreserved characters, as a client encodes a query value.
    var addingPercentEncodingForQuery: String {
        var allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~".unicodeScalars)
        allowed.remove("~")
        var result = ""
        for byte in utf8 {
            if byte < 128, allowed.contains(Unicode.Scalar(byte)) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }
}
