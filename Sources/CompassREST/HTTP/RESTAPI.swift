import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Postgres
import ServiceLifecycle

/// `/rest/v1`: PostgREST's API over the exposed schema, so `supabase.from(…)` works unchanged.
///
/// ```swift
/// let rest = RESTAPI(context: context, configuration: settings.rest)
/// rest.addRoutes(to: router)   // GET/HEAD/POST/PUT/PATCH/DELETE /rest/v1/{table}, /rest/v1/rpc/{fn}, GET /rest/v1/
/// rest.services                // NOTIFY pgrst, 'reload schema'
/// ```
/// Each request: the gateway's API-key check (middleware), the JWT's role and claims, names
/// checked against the schema cache, one statement with every value bound, in one transaction.
public struct RESTAPI: CompassAPI {
    /// The schema cache the routes plan against.
    public let store: SchemaCacheStore
    let configuration: RESTConfiguration
    let authenticator: RESTAuthenticator
    let executor: RESTExecutor
    let context: ServerContext

    /// Builds the API on the server's shared pool; nothing connects until the first request.
    public init(context: ServerContext, configuration: RESTConfiguration = RESTConfiguration()) {
        self.store = SchemaCacheStore(
            pool: context.pool, schemas: configuration.schemas, searching: configuration.extraSearchPath,
            documents: configuration.openAPI.mode != .disabled, logger: context.logger)
        self.configuration = configuration
        self.authenticator = RESTAuthenticator(verifier: context.verifier)
        self.executor = RESTExecutor(pool: context.pool, maximumReplyBytes: configuration.maximumReplyBytes)
        self.context = context
    }

    /// The service that reloads the schema cache on `NOTIFY pgrst`.
    public var reloadService: SchemaReloadService {
        SchemaReloadService(store: store, listenerConfiguration: context.listener, logger: context.logger)
    }

    public var services: [any Service] { [reloadService] }

    /// Adds the table and RPC routes under `/rest/v1`, behind the gateway and PostgREST's error replies.
    public func addRoutes(to router: Router<CompassRequestContext>) {
        let api = self
        let group = router.group("/rest/v1")
            .add(middleware: ErrorReplyMiddleware(RESTErrorReply.translating))
            .add(middleware: APIKeyMiddleware(verifier: context.verifier))
            .add(middleware: ClientShareMiddleware(context.clientShare))
        let methods: [(RESTMethod, HTTPRequest.Method)] = [
            (.get, .get), (.head, .head), (.post, .post), (.put, .put), (.patch, .patch), (.delete, .delete),
        ]
        // The root: the OpenAPI description of the exposed schema.
        for (method, httpMethod) in methods where method.isRead {
            group.on("", method: httpMethod) { request, context -> Response in
                try await api.describe(request: request, key: context.requireAPIKey(), method: method)
            }
        }
        for (method, httpMethod) in methods {
            group.on(":table", method: httpMethod) { request, context -> Response in
                try await api.respond(
                    to: request, key: context.requireAPIKey(), method: method,
                    resource: .table(Self.decodedName(context.parameters.get("table"))))
            }
        }
        for (method, httpMethod) in methods where method != .put && method != .patch && method != .delete {
            group.on("rpc/:function", method: httpMethod) { request, context -> Response in
                try await api.respond(
                    to: request, key: context.requireAPIKey(), method: method,
                    resource: .function(Self.decodedName(context.parameters.get("function"))))
            }
        }
        for (method, httpMethod) in methods where method == .put || method == .patch || method == .delete {
            group.on("rpc/:function", method: httpMethod) { _, context -> Response in
                _ = try context.requireAPIKey()
                throw RESTError.methodNotForFunctions(method.rawValue)
            }
        }
        group.on("", method: .options) { request, context -> Response in
            try await api.options(request: request, key: context.requireAPIKey(), resource: nil)
        }
        group.on(":table", method: .options) { request, context -> Response in
            try await api.options(request: request, key: context.requireAPIKey(), resource: .table(Self.decodedName(context.parameters.get("table"))))
        }
        group.on("rpc/:function", method: .options) { request, context -> Response in
            try await api.options(
                request: request, key: context.requireAPIKey(), resource: .function(Self.decodedName(context.parameters.get("function"))))
        }
        // Deeper paths name nothing PostgREST serves: its 404 PGRST125, not an empty 404.
        for (_, httpMethod) in methods {
            group.on(":table/**", method: httpMethod) { _, context -> Response in
                _ = try context.requireAPIKey()
                throw RESTError.invalidPath
            }
        }
    }

    /// A path segment as the name it spells: `Server%20Today` is the table `Server Today`.
    static func decodedName(_ segment: String?) -> String {
        guard let segment else { return "" }
        // Most names hold no escape: skip Foundation's decoding (a bridged NSString) for them.
        guard segment.utf8.contains(UInt8(ascii: "%")) else { return segment }
        return segment.removingPercentEncoding ?? segment
    }

    /// What a route addresses.
    enum Resource {
        case table(String)
        case function(String)
    }

    /// Runs one request end to end; a refusal is thrown as PostgREST's error.
    func respond(to request: Request, key: APIKey, method: RESTMethod, resource: Resource) async throws(RESTError) -> Response {
        let timing = configuration.serverTiming ? ServerTiming() : nil
        // A write's reply cannot be refused once it committed: while unread large replies hold the
        // budget, writes are refused before they run (reads are refused by their own size, below).
        if !method.isRead, context.replies.isExhausted { throw .replyBudgetExhausted }
        let claims = try await authenticator.claims(for: request, key: key)
        timing?.mark(.jwt)
        let path: String
        switch resource {
        case .table(let name): path = "/" + name
        case .function(let name): path = "/rpc/" + name
        }
        var parsed = try RESTRequest(
            request: request, method: method, path: path, claims: claims, configuration: configuration,
            isRPC: { if case .function = resource { return true } else { return false } }())
        let cache = try await schemaCache(parsed.scope.schema)
        if let settings = cache.roleSettings { parsed.scope.apply(roleSettings: settings[parsed.scope.role] ?? [:]) }
        parsed.scope.preRequest = cache.preRequest(configured: configuration.preRequest)
        parsed.timing = timing
        timing?.mark(.parse)
        var reply = try await route(request, to: resource, method: method, parsed: parsed, cache: cache)
        if parsed.namesProfile { reply.headers[HTTPField.Name("Content-Profile")!] = parsed.scope.schema }
        if let warning = parsed.parameters.legacyTargetWarning { reply.headers[HTTPField.Name("Warning")!] = warning }
        // The representation depends on these request headers (PostgREST's Vary), unless a function named its own.
        if reply.headers[.vary] == nil { reply.headers[.vary] = "Accept, Prefer, Range" }
        // A read's bytes are in memory already; refused, they go now rather than wait on a socket
        // (a write's reply is sent anyway: what it changed is committed).
        if method.isRead, let length = reply.body.contentLength, length >= ServerContext.countedReplyPartBytes,
            !context.replies.admits(length)
        {
            throw .replyBudgetExhausted
        }
        return timing.stamped(reply)
    }

    /// The read, write or call a request is.
    private func route(
        _ request: Request, to resource: Resource, method: RESTMethod, parsed: RESTRequest, cache: SchemaCache
    ) async throws(RESTError) -> Response {
        switch resource {
        case .table(let name) where method.isRead:
            return try await read(table: try cache.table(named: name), cache: cache, request: parsed)
        case .table(let name):
            let body = method == .delete ? nil : try await collectBody(request)
            return try await offTheEventLoop(bodyBytes: body?.utf8.count ?? 0) { () async throws(RESTError) in
                try await write(table: try cache.table(named: name), cache: cache, request: parsed, body: body)
            }
        case .function(let name):
            let body = method == .post ? try await collectBytes(request) : nil
            return try await offTheEventLoop(bodyBytes: body?.count ?? 0) { () async throws(RESTError) in
                try await call(function: name, cache: cache, request: parsed, body: body)
            }
        }
    }

    /// Bodies from this size are read on the shared pool, not on the connection's event loop.
    static let offLoopBodyBytes = 64 << 10

    /// Runs `work` on the shared pool when the body is large: reading a megabyte (its keys, a
    /// form or CSV turned into JSON) takes milliseconds that every other connection of the
    /// loop would wait through. Small requests stay on the loop (``EventLoopTaskExecutor``).
    private func offTheEventLoop(
        bodyBytes: Int, _ work: () async throws(RESTError) -> Response
    ) async throws(RESTError) -> Response {
        guard bodyBytes >= Self.offLoopBodyBytes else { return try await work() }
        return try await withTaskExecutorPreference(globalConcurrentExecutor, operation: work)
    }

    func schemaCache(_ schema: String) async throws(RESTError) -> SchemaCache {
        do {
            return try await store.current(schema: schema)
        } catch {
            context.logger.error("schema cache load failed", metadata: ["pg.error": "\(error)"])
            throw .schemaCacheUnavailable
        }
    }

    /// The body as text, or 413 past the configured limit.
    private func collectBody(_ request: Request) async throws(RESTError) -> String {
        let bytes = try await collectBytes(request)
        if let bad = UTF8Validation.firstInvalidSequence(bytes) { throw .invalidUTF8(bad, in: "the request body") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The body's bytes, or 413 past the configured limit.
    private func collectBytes(_ request: Request) async throws(RESTError) -> [UInt8] {
        do {
            var buffer = try await request.collectBody(upTo: configuration.maximumBodyBytes, budget: context.bodyBudget)
            return buffer.readBytes(length: buffer.readableBytes) ?? []
        } catch let error as BodyTooLarge {
            throw .invalidBody(.tooLarge(limit: error.limit))
        } catch is BodyBudgetExhausted {
            throw .bodyBudgetExhausted
        } catch {
            throw .invalidBody(.emptyOrInvalidJSON)
        }
    }
}
