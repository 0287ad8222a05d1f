import Hummingbird

extension RESTAPI {
    /// POST/PATCH/DELETE `/rest/v1/{table}`: 201/200 with the rows for `return=representation`,
    /// else 201/204 with no body; `Location` for a one-row insert with `return=headers-only`.
    func write(table: TableInfo, cache: SchemaCache, request: RESTRequest, body: String?) async throws(RESTError) -> Response {
        let preferences = request.preferences
        let requestBody = try body.map { (text: String) throws(RESTError) in try RequestBody(json: text, columns: request.parameters.columns) }
        let plan = try MutationPlanner.plan(
            method: request.method, table: table, cache: cache, parameters: request.parameters, preferences: preferences,
            body: requestBody, requiresFilters: configuration.requiresFilteredWrites)
        let single = request.wantsSingleObject
        let location = request.method == .post && preferences.representation == .headersOnly
        let statement = MutationQueryBuilder.statement(
            plan, schema: cache.schema, count: preferences.wantsCount, single: single, location: location,
            maximumReplyBytes: configuration.maximumReplyBytes)
        let result = try await executor.run(statement.query, schemaGeneration: cache.generation, scope: request.scope, readOnly: false) { result throws(RESTError) in
            if single, result.pageTotal != 1 { throw .notSingleObject(rows: result.pageTotal) }
        }
        var headers: [String: String] = [:]
        let isInsert = request.method == .post
        headers["Content-Range"] =
            request.method == .patch
            ? RowRange.all.contentRange(returned: result.pageTotal, total: result.total)
            : "*/" + (result.total.map(String.init) ?? "*")
        if let applied = preferences.applied(
            includeResolution: isInsert && (!table.primaryKey.isEmpty || request.parameters.onConflict != nil),
            includeMissing: request.method != .delete, includeReturn: true)
        {
            headers["Preference-Applied"] = applied
        }
        if location, result.pageTotal == 1, let query = result.location {
            headers["Location"] = "/\(table.name)?\(query)"
        }
        if preferences.representation == .representation {
            return RESTReply.body(
                status: isInsert ? 201 : 200, result.body, contentType: single ? RESTReply.singleObject : RESTReply.json,
                headers: headers)
        }
        return RESTReply.body(status: isInsert ? 201 : 204, nil, headers: headers)
    }
}
