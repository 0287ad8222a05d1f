import CompassHTTP
import HTTPTypes
import Hummingbird

extension RESTAPI {
    /// The media type of the description.
    static let openAPIContentType = "application/openapi+json; charset=utf-8"

    /// GET/HEAD `/rest/v1/`: PostgREST's OpenAPI description of the schema `Accept-Profile` names
    /// (else the default one), as the request's role sees it; 404 PGRST126 when disabled.
    func describe(request: Request, key: APIKey, method: RESTMethod) async throws(RESTError) -> Response {
        let timing = configuration.serverTiming ? ServerTiming() : nil
        let claims = try await authenticator.claims(for: request, key: key)
        timing?.mark(.jwt)
        guard configuration.openAPI.mode != .disabled else { throw .openAPIDisabled }
        try Self.acceptsDescription(request.headers[.accept])
        let profile = try RESTRequest.profile(of: request, isRead: true, configuration: configuration)
        let cache = try await schemaCache(profile ?? configuration.schema)
        timing?.mark(.parse)
        guard let documentation = cache.documentation else { throw .schemaCacheUnavailable }
        let preRequest = cache.preRequest(configured: configuration.preRequest)
        if preRequest != nil || claims.namesOtherRole {
            // PostgREST calls it for the description too: a request it refuses learns nothing of the
            // schema; and a role a token names is one the database must let the request become.
            var scope = RESTRequest.scope(of: request, method: method, path: "/", claims: claims, schema: cache.schema, configuration: configuration)
            if let settings = cache.roleSettings { scope.apply(roleSettings: settings[scope.role] ?? [:]) }
            scope.preRequest = preRequest
            try await executor.open(scope, timing: timing)
        }
        var headers = HTTPFields()
        if profile != nil || configuration.schemas.count > 1 { headers[HTTPField.Name("Content-Profile")!] = cache.schema }
        guard method != .head else {
            // No body and, as PostgREST, no Content-Length: the document is not built for a HEAD.
            headers[.contentType] = Self.openAPIContentType
            return timing.stamped(RESTReply.withoutBody(Response(status: .ok, headers: headers)))
        }
        let document = OpenAPIDocument(
            cache: cache, documentation: documentation, role: claims.databaseRole, settings: configuration.openAPI,
            server: server(for: request))
        return timing.stamped(JSONReply.text(document.json.text, headers: headers, contentType: Self.openAPIContentType))
    }

    /// Where the document says the API lives: the proxy URI when one is set, else the host the
    /// request was sent to and `/rest/v1/`, where this worker serves it.
    private func server(for request: Request) -> OpenAPIDocument.Server {
        if let uri = configuration.openAPI.serverProxyURI {
            return .init(scheme: uri.scheme, host: "\(uri.host):\(uri.port)", basePath: uri.basePath)
        }
        return .init(scheme: "http", host: request.head.authority, basePath: "/rest/v1/")
    }

    /// The description is `application/openapi+json`, also served for `application/json` and
    /// `*/*`; any other `Accept` is PostgREST's 406 PGRST107.
    static func acceptsDescription(_ accept: String?) throws(RESTError) {
        guard let accept, !accept.trimmingSpaces.isEmpty else { return }
        let ranges = accept.split(separator: ",").map { MediaRange(String($0)) }
        let served: Set<String> = ["application/openapi+json", "application/json", "application/*", "*/*"]
        if ranges.contains(where: { $0.quality > 0 && served.contains($0.type) }) { return }
        throw .unavailableMediaTypes(ranges.map(\.type))
    }
}
