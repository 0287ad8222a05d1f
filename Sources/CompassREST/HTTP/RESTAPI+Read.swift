import HTTPTypes
import Hummingbird

extension RESTAPI {
    /// GET/HEAD `/rest/v1/{table}`: 200, 206 for a partial window of a counted total, 416 past its end.
    func read(table: TableInfo, cache: SchemaCache, request: RESTRequest) async throws(RESTError) -> Response {
        let range = try request.range().limited(to: configuration.maximumRows)
        var planner = ReadPlanner(cache: cache, allowsAggregates: configuration.allowsAggregates)
        let plan = try planner.plan(table: table, parameters: request.parameters, range: range).limitingEmbeds(to: configuration.maximumRows)
        let media = try request.mediaType(handlers: cache.mediaHandlers, target: .relation(table.name), allowsPlans: configuration.allowsPlans)
        // count=estimated under a row cap, as PostgREST's: the count stops past the cap, and is
        // exact up to it; past it, the larger of what it reached and the planner's estimate.
        let countCap = request.preferences.count == "estimated" ? configuration.maximumRows : nil
        let statement = ReadQueryBuilder.statement(
            plan, schema: cache.schema, count: request.preferences.wantsCount, countLimit: countCap.map { $0 == .max ? $0 : $0 + 1 }, media: media,
            maximumReplyBytes: configuration.maximumReplyBytes)
        if media.plan != nil { return try await planReply(statement, cache: cache, request: request, media: media, readOnly: true) }
        let estimate = request.preferences.wantsPlannedCount ? ReadQueryBuilder.rowEstimate(plan, schema: cache.schema).query : nil
        let result = try await executor.run(
            statement.query, schemaGeneration: cache.generation, scope: request.scope, readOnly: true, estimate: estimate,
            exactCountUpTo: countCap, timing: request.timing
        ) { result throws(RESTError) in
            if media.isSingleObject, result.pageTotal != 1 { throw .notSingleObject(rows: result.pageTotal) }
        }
        var reply = pageReply(result, range: range, request: request, media: media, action: .read)
        // PostgREST names the representation it read: the table and its sorted query.
        let query = request.canonicalQuery
        reply.headers[HTTPField.Name("Content-Location")!] = "/" + table.name + (query.isEmpty ? "" : "?" + query)
        return reply
    }

    /// The reply for a window of rows (reads and RPC), with `Content-Range` and the range status.
    func pageReply(
        _ result: StatementResult, range: RowRange, request: RESTRequest, media: ReplyMediaType, action: Preferences.Action
    ) -> Response {
        var headers = ["Content-Range": range.contentRange(returned: result.pageTotal, total: result.total)]
        if let applied = request.preferences.applied(to: action) {
            headers["Preference-Applied"] = applied
        }
        var status = 200
        if let total = result.total {
            if range.offset > total {
                var error = RESTError.rangeNotSatisfiable(.offsetPastTotal(offset: range.offset, total: total))
                error.headers = headers
                return RESTReply.error(error)
            }
            if result.pageTotal < total { status = 206 }
        }
        let reply = result.settings.applied(to: RESTReply.body(status: status, result.body, media: media, headers: headers))
        return request.method == .head ? RESTReply.withoutBody(reply) : reply
    }
}
