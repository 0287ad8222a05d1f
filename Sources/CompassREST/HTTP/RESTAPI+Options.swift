import CompassHTTP
import HTTPTypes
import Hummingbird

extension RESTAPI {
    /// `OPTIONS` on the root, a table or view, or a function: 200 with no body and `Allow` naming
    /// the methods it takes, as PostgREST answers (the schema from `Accept-Profile`; an unknown
    /// name is the same 404 a read gets). A browser's CORS preflight never gets here: the edge answers it.
    func options(request: Request, key: APIKey, resource: Resource?) async throws(RESTError) -> Response {
        let timing = configuration.serverTiming ? ServerTiming() : nil
        _ = try await authenticator.claims(for: request, key: key)
        timing?.mark(.jwt)
        let schema = try RESTRequest.profile(of: request, isRead: true, configuration: configuration) ?? configuration.schema
        let allow: String
        switch resource {
        case nil:
            allow = "OPTIONS,GET,HEAD"
        case .table(let name):
            allow = try await schemaCache(schema).table(named: name).allowedMethods
        case .function(let name):
            let cache = try await schemaCache(schema)
            guard let overloads = cache.functions[name], !overloads.isEmpty else {
                throw .functionNotFound(schema: schema, name: name, keys: [], searched: .parameters, suggestion: nil)
            }
            // Any overload GET may call makes GET and HEAD allowed.
            allow = overloads.contains { $0.volatility != .volatile } ? "OPTIONS,GET,HEAD,POST" : "OPTIONS,POST"
        }
        timing?.mark(.parse)
        return timing.stamped(Response(status: .ok, headers: [.allow: allow, .contentLength: "0"]))
    }
}
