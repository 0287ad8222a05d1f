import Foundation
import Hummingbird

extension RESTAPI {
    /// `/rest/v1/rpc/{function}`: POST with its arguments in the body (JSON, a form, CSV, or
    /// text/XML/bytes for a single unnamed parameter), or GET/HEAD with them as query parameters
    /// (stable and immutable functions only: GET is read-only).
    func call(function name: String, cache: SchemaCache, request: RESTRequest, body: [UInt8]?) async throws(RESTError) -> Response {
        let arguments: CallArguments
        if request.method == .post {
            arguments = try CallArguments(post: body ?? [], mediaType: request.bodyMediaType, columns: request.parameters.columns)
        } else {
            arguments = .pairs(request.parameters.arguments)
        }
        let range = try request.range().limited(to: configuration.maximumRows)
        var plan = try CallPlanner.plan(
            name: name, arguments: arguments, isPost: request.method == .post, cache: cache, parameters: request.parameters,
            range: range, allowsAggregates: configuration.allowsAggregates)
        plan.read = plan.read?.limitingEmbeds(to: configuration.maximumRows)
        // Rows of a table are negotiated as that table's (its handlers apply); anything else as the function's own.
        let target: MediaHandlers.Target = plan.function.returnTable.map { .relation($0) } ?? .function(plan.function.name)
        let media = try request.mediaType(handlers: cache.mediaHandlers, target: target, allowsPlans: configuration.allowsPlans)
        if media.shape == .csv, plan.function.returnsScalar || plan.function.returnsVoid {
            throw .unavailableMediaTypes(["text/csv"])
        }
        let single = media.isSingleObject
        let statement = CallQueryBuilder.statement(
            plan, schema: cache.schema, count: request.preferences.wantsCount, media: media,
            maximumReplyBytes: configuration.maximumReplyBytes)
        let maxAffected = request.preferences.enforcedMaxAffected
        if maxAffected != nil, !plan.function.returnsSet { throw .maxAffectedNeedsRows }
        // As in PostgREST, a stable or immutable function runs read-only whatever the method.
        let readOnly = request.method.isRead || plan.function.volatility != .volatile
        if media.plan != nil {
            return try await planReply(statement, cache: cache, request: request, media: media, readOnly: readOnly)
        }
        // A set of scalars too: PostgREST refuses anything but one row for a single object.
        let returnsRows = !plan.function.returnsVoid && plan.function.returnsSet
        let result = try await executor.run(
            statement.query, schemaGeneration: cache.generation, scope: request.scope, readOnly: readOnly,
            rollback: rollsBack(request), timing: request.timing
        ) { result throws(RESTError) in
            if let maxAffected, result.pageTotal > maxAffected { throw .maxAffectedExceeded(rows: result.pageTotal) }
            if single, returnsRows, result.pageTotal != 1 { throw .notSingleObject(rows: result.pageTotal) }
        }
        if plan.function.returnsVoid {
            return result.settings.applied(
                to: RESTReply.body(status: 204, nil, headers: ["Content-Range": range.contentRange(returned: result.pageTotal, total: result.total)]))
        }
        return pageReply(result, range: range, request: request, media: media, action: .call)
    }
}
