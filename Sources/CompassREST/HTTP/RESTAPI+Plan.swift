import Hummingbird

extension RESTAPI {
    /// The reply to `Accept: application/vnd.pgrst.plan` (``PlanOutput``): 200 with the `EXPLAIN`
    /// of `statement`, run in the transaction the request would have run in, under its role and
    /// claims, so row-level security and the role's settings shape the plan as they would the rows.
    func planReply(_ statement: SQLBuilder, cache: SchemaCache, request: RESTRequest, media: ReplyMediaType, readOnly: Bool) async throws(RESTError) -> Response {
        let plan = try await executor.explain(
            statement.query, schemaGeneration: cache.generation, scope: request.scope, readOnly: readOnly,
            rollback: rollsBack(request), timing: request.timing)
        let reply = RESTReply.body(status: 200, plan, media: media)
        return request.method == .head ? RESTReply.withoutBody(reply) : reply
    }
}
