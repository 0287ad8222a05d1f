import Foundation
import Hummingbird

extension RESTAPI {
    /// POST/PUT/PATCH/DELETE `/rest/v1/{table}`: 201/200 with the rows for `return=representation`,
    /// else 201/204 with no body; `Location` for a one-row insert with `return=headers-only`. A PUT
    /// answers 201 when it created its row, 200 when it replaced one.
    func write(table: TableInfo, cache: SchemaCache, request: RESTRequest, body: String?) async throws(RESTError) -> Response {
        let preferences = request.preferences
        let method = request.method
        let requestBody = try body.map { (text: String) throws(RESTError) in
            try RequestBody(text: text, mediaType: request.bodyMediaType, columns: request.parameters.columns)
        }
        let plan = try MutationPlanner.plan(
            method: method, table: table, cache: cache, parameters: request.parameters, preferences: preferences,
            body: requestBody, requiresFilters: configuration.requiresFilteredWrites,
            allowsAggregates: configuration.allowsAggregates)
        let media = try request.mediaType(handlers: cache.mediaHandlers, target: .relation(table.name), allowsPlans: configuration.allowsPlans)
        let location = method == .post && preferences.representation == .headersOnly
        let statement = MutationQueryBuilder.statement(
            plan, schema: cache.schema, count: preferences.wantsCount, media: media, location: location,
            maximumReplyBytes: configuration.maximumReplyBytes)
        if media.plan != nil { return try await planReply(statement, cache: cache, request: request, media: media, readOnly: false) }
        let maxAffected = method == .patch || method == .delete ? preferences.enforcedMaxAffected : nil
        let result = try await executor.run(
            statement.query, schemaGeneration: cache.generation, scope: request.scope, readOnly: false,
            rollback: rollsBack(request), timing: request.timing
        ) { result throws(RESTError) in
            if method == .put, result.pageTotal != 1 { throw .putPrimaryKeyMismatch }
            if let maxAffected, result.pageTotal > maxAffected { throw .maxAffectedExceeded(rows: result.pageTotal) }
            if media.isSingleObject, result.pageTotal != 1 { throw .notSingleObject(rows: result.pageTotal) }
        }
        var headers: [String: String] = [:]
        switch method {
        case .patch: headers["Content-Range"] = RowRange.all.contentRange(returned: result.pageTotal, total: result.total)
        case .put: break
        default: headers["Content-Range"] = "*/" + (result.total.map(String.init) ?? "*")
        }
        let action: Preferences.Action =
            switch method {
            case .post: .insert(resolves: !table.primaryKey.isEmpty || request.parameters.onConflict != nil)
            case .put, .patch: .update
            default: .delete
            }
        if let applied = preferences.applied(to: action) {
            headers["Preference-Applied"] = applied
        }
        if location, result.pageTotal == 1, let filters = result.location.flatMap(Self.locationFilters) {
            headers["Location"] = "/\(table.name)?" + RESTRequest.encodedQuery(filters)
        }
        // An upsert merging duplicates that inserted nothing (it only updated, or had no rows) is 200, as PostgREST.
        let onlyMerged = method == .post && plan.countsInserts && (result.inserted ?? result.pageTotal) <= 0
            || method == .post && preferences.resolution == .mergeDuplicates && result.pageTotal == 0
        let created = (method == .post && !onlyMerged) || (method == .put && result.location == MutationQueryBuilder.createdMarker)
        if preferences.representation == .representation {
            return result.settings.applied(
                to: RESTReply.body(status: created ? 201 : 200, result.body, media: media, headers: headers))
        }
        return result.settings.applied(to: RESTReply.body(status: method == .post ? (created ? 201 : 200) : 204, nil, headers: headers))
    }

    /// The created row's key filters, as the mutation's SQL lists them (`[["id","eq.5"]]`).
    private static func locationFilters(_ json: String) -> [(name: String, value: String?)]? {
        guard let pairs = try? JSONDecoder().decode([[String]].self, from: Data(json.utf8)) else { return nil }
        return pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    }

    /// Whether the request's transaction ends in a rollback: `Prefer: tx=rollback` where the
    /// configuration lets a request choose, else the configured end.
    func rollsBack(_ request: RESTRequest) -> Bool {
        configuration.transactionEnd.rollsBack(asking: request.preferences.transaction)
    }
}
