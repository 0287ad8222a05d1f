import Foundation
import Hummingbird

extension RESTAPI {
    /// `/rest/v1/rpc/{function}`: POST with a JSON object of arguments, or GET/HEAD with them
    /// as query parameters (stable and immutable functions only: GET is read-only).
    func call(function name: String, cache: SchemaCache, request: RESTRequest, body: String?) async throws(RESTError) -> Response {
        let argumentsJSON: String
        let keys: [String]
        if request.method == .post {
            let text = body?.trimmingSpaces.isEmpty == false ? body! : "{}"
            guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                throw .invalidBody(.emptyOrInvalidJSON)
            }
            argumentsJSON = text
            keys = object.keys.sorted()
        } else {
            argumentsJSON = RESTRequest.object(Dictionary(request.parameters.arguments, uniquingKeysWith: { _, last in last }))
            keys = Set(request.parameters.arguments.map(\.name)).sorted()
        }
        let range = try request.range()
        let plan = try CallPlanner.plan(
            name: name, argumentKeys: keys, argumentsJSON: argumentsJSON, cache: cache, parameters: request.parameters,
            range: range)
        let media = request.mediaType
        if media.shape == .csv, plan.function.returnsScalar || plan.function.returnsVoid {
            throw .unavailableMediaTypes(["text/csv"])
        }
        let single = media.isSingleObject
        let statement = CallQueryBuilder.statement(
            plan, schema: cache.schema, count: request.preferences.wantsCount, media: media,
            maximumReplyBytes: configuration.maximumReplyBytes)
        let returnsRows = !plan.function.returnsScalar && !plan.function.returnsVoid && plan.function.returnsSet
        let maxAffected = request.preferences.enforcedMaxAffected
        if maxAffected != nil, !plan.function.returnsSet { throw .maxAffectedNeedsRows }
        let result = try await executor.run(
            statement.query, schemaGeneration: cache.generation, scope: request.scope, readOnly: request.method.isRead,
            rollback: rollsBack(request)
        ) { result throws(RESTError) in
            if let maxAffected, result.pageTotal > maxAffected { throw .maxAffectedExceeded(rows: result.pageTotal) }
            if single, returnsRows, result.pageTotal != 1 { throw .notSingleObject(rows: result.pageTotal) }
        }
        if plan.function.returnsVoid {
            return result.settings.applied(
                to: RESTReply.body(status: 204, nil, headers: ["Content-Range": range.contentRange(returned: result.pageTotal, total: result.total)]))
        }
        return pageReply(result, range: range, request: request, action: .call)
    }
}
