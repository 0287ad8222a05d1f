import Testing

@testable import CompassREST

/// The bounds a request meets before any SQL exists: how deeply `select=` may nest, and
/// PATCH/DELETE refused without a filter (`pg-safeupdate`). No database.
@Suite("REST request bounds")
struct RequestBoundsTests {
    /// `select=` with `depth` embeds, each inside the one before: `e(e(…(id)…))`.
    static func nested(_ depth: Int) -> String {
        String(repeating: "e(", count: depth) + "id" + String(repeating: ")", count: depth)
    }

    @Test func embedsNestUpToTheLimit() throws {
        #expect(try SelectParser.parse(Self.nested(8), maximumDepth: 8).count == 1)
        #expect(throws: RESTError.nestedTooDeep(.embeds, limit: 8, column: 18)) { try SelectParser.parse(Self.nested(9), maximumDepth: 8) }
        #expect(throws: RESTError.nestedTooDeep(.embeds, limit: 2, column: 9)) {
            try QueryParameters(query: "select=id,a(b(c(id)))", maximumEmbedDepth: 2)
        }
        // Siblings do not add up: three embeds side by side are each one level deep.
        #expect(try SelectParser.parse("a(id),b(id),c(d(id))", maximumDepth: 2).count == 3)
    }

    /// Without the bound, this would recurse 200,000 levels and exhaust the stack.
    @Test func aHostilelyDeepSelectIsRefusedAtTheFirstLevelPastTheLimit() {
        #expect(throws: RESTError.nestedTooDeep(.embeds, limit: 8, column: 18)) { try SelectParser.parse(Self.nested(200_000)) }
    }

    @Test func logicGroupsNestUpToTheirLimitAndAHostileTreeIsRefusedWithoutRecursing() throws {
        func tree(_ depth: Int) -> String {
            "(" + String(repeating: "and(", count: depth - 1) + "id.eq.1" + String(repeating: ")", count: depth)
        }
        _ = try LogicParser.parse(key: "or", value: tree(16))
        #expect(throws: RESTError.nestedTooDeep(.logicGroups, limit: 16, column: 65)) { try LogicParser.parse(key: "or", value: tree(17)) }
        #expect(throws: RESTError.nestedTooDeep(.logicGroups, limit: 16, column: 65)) {
            try QueryParameters(query: "or=" + tree(100_000))
        }
    }

    /// JSON bodies nested without end are read without recursion (no stack to overflow), and
    /// judged as PostgREST judges them: arrays of arrays are not rows; a deep value in a row is
    /// Postgres's to take or refuse.
    @Test func aHostilelyDeepJSONBodyIsReadWithoutRecursion() throws {
        let depth = 300_000
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: RESTError.invalidBody(.mismatchedKeys)) { try RequestBody(json: nested, columns: nil) }
        #expect(throws: RESTError.invalidBody(.emptyOrInvalidJSON)) { try RequestBody(json: nested + "]", columns: nil) }
        #expect(try RequestBody(json: #"{"content":\#(nested)}"#, columns: nil).keys == ["content"])
    }

    /// A PATCH or DELETE planned against `interactions` with `query` (and a body for PATCH).
    static func plan(_ method: RESTMethod, _ query: String, body: String = #"{"content":"x"}"#, requiresFilters: Bool = true) throws {
        _ = try MutationPlanner.plan(
            method: method, table: try SQLBindingTests.cache.table(named: "interactions"), cache: SQLBindingTests.cache,
            parameters: try QueryParameters(query: query), preferences: try Preferences(headerValues: []),
            body: method == .delete ? nil : try RequestBody(json: body, columns: nil), requiresFilters: requiresFilters)
    }

    @Test(arguments: ["", "limit=1", "order=id&limit=1", "select=*,schools(*)&schools.name=eq.x", "offset=3"])
    func anUpdateOrDeleteOfEveryRowIsRefused(query: String) {
        #expect(throws: RESTError.missingWhereClause(.update)) { try Self.plan(.patch, query) }
        #expect(throws: RESTError.missingWhereClause(.delete)) { try Self.plan(.delete, query) }
    }

    @Test(arguments: ["id=eq.x", "or=(content.eq.x,content.is.null)", "content=not.is.null&limit=1", "not.and=(id.eq.x,id.eq.y)"])
    func anyFilterOnTheTableAllowsIt(query: String) throws {
        try Self.plan(.patch, query)
        try Self.plan(.delete, query)
    }

    @Test func theSettingOffAndStatementsWithoutAWhereAreLeftAlone() throws {
        try Self.plan(.patch, "", requiresFilters: false)
        try Self.plan(.delete, "", requiresFilters: false)
        try Self.plan(.patch, "", body: "{}")  // no column to set: no UPDATE runs
        try Self.plan(.post, "")
    }
}
