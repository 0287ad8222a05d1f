/// PostgREST's OpenAPI (Swagger 2.0) description of one exposed schema, as one role sees it:
/// a path per table and function it may use, a definition per table, and the shared parameters.
///
/// ```swift
/// let document = OpenAPIDocument(cache: cache, documentation: docs, role: "anon", settings: settings,
///                                server: .init(scheme: "http", host: "127.0.0.1:4000", basePath: "/rest/v1/"))
/// document.json.text   // {"swagger":"2.0","info":{…},"paths":{"/":…,"/schools":…},…}
/// ```
/// Built per request from the schema cache: no catalog query runs for it.
struct OpenAPIDocument {
    /// Where the document says the API is served.
    struct Server: Sendable, Hashable {
        var scheme: String
        /// `host[:port]`, or nil when unknown.
        var host: String?
        var basePath: String
    }

    let cache: SchemaCache
    let documentation: SchemaDocumentation
    /// The requesting role (`anon`, `authenticated`, `service_role`).
    let role: String
    let settings: OpenAPISettings
    let server: Server

    /// The PostgREST documentation the grammar follows.
    static let grammarDocumentation = "https://postgrest.org/en/v12/references/api.html"
    /// The media types every table and function answers in and takes.
    static let mediaTypes: [OpenAPIJSON] = [
        "application/json", "application/vnd.pgrst.object+json;nulls=stripped", "application/vnd.pgrst.object+json", "text/csv",
    ]

    /// The whole document.
    var json: OpenAPIJSON {
        let (title, description) = Self.summary(documentation.comment)
        let tables = visibleTables
        var members: [(String, OpenAPIJSON?)] = [
            ("swagger", "2.0"),
            ("info", .object([
                ("title", .string(title ?? "Compass REST API")),
                // A one-line comment is all title, as in PostgREST.
                ("description", .string(documentation.comment == nil ? "PostgREST's API over the exposed schema, served by compass-worker" : description ?? "")),
                ("version", .string(settings.version)),
            ])),
            ("host", server.host.map(OpenAPIJSON.string)),
            ("basePath", .string(server.basePath)),
            ("schemes", .array([.string(server.scheme)])),
            ("consumes", .array(Self.mediaTypes)),
            ("produces", .array(Self.mediaTypes)),
            ("paths", paths(tables: tables)),
            ("definitions", .object(tables.map { ($0.name, definition(of: $0)) })),
            ("parameters", parameters(tables: tables)),
            ("externalDocs", .object([("description", "PostgREST Documentation"), ("url", .string(Self.grammarDocumentation))])),
        ]
        if settings.securityActive {
            members.append(("securityDefinitions", .object([("JWT", .object([
                ("type", "apiKey"), ("in", "header"), ("name", "Authorization"),
                ("description", "Add the token prepending \"Bearer \" (without quotes) to it"),
            ]))])))
            members.append(("security", .array([.object([("JWT", .array([]))])])))
        }
        return .object(members)
    }

    /// The tables and views the role may use (any privilege), or all of them when privileges are ignored.
    var visibleTables: [SchemaDocumentation.Table] {
        documentation.tables.values
            .filter { cache.tables[$0.name] != nil && (settings.mode == .ignorePrivileges || $0.access[role]?.any == true) }
            .sorted { $0.name < $1.name }
    }

    /// The functions `/rpc` can call that the role may execute, one per name (the first overload).
    var visibleFunctions: [SchemaDocumentation.Function] {
        var seen: Set<String> = []
        return documentation.functions.filter { function in
            function.callable && (settings.mode == .ignorePrivileges || function.roles.contains(role)) && seen.insert(function.name).inserted
        }
    }

    /// The methods the role may use on `table`: its privileges and what the relation can take
    /// (a view Postgres cannot write through has no POST); every method when privileges are ignored.
    func methods(of table: SchemaDocumentation.Table) -> (get: Bool, post: Bool, patch: Bool, delete: Bool) {
        let access = settings.mode == .ignorePrivileges
            ? SchemaDocumentation.Access(any: true, select: true, insert: true, update: true, delete: true)
            : table.access[role] ?? SchemaDocumentation.Access(any: false, select: false, insert: false, update: false, delete: false)
        let writes = cache.tables[table.name]?.writes ?? []
        return (access.select, access.insert && writes.contains(.insert), access.update && writes.contains(.update), access.delete && writes.contains(.delete))
    }

    /// A comment's first line and the rest (leading blank lines dropped; nil when empty), as
    /// PostgREST splits comments into a summary and a description.
    static func summary(_ comment: String?) -> (String?, String?) {
        guard let comment else { return (nil, nil) }
        guard let newline = comment.firstIndex(of: "\n") else { return (comment, nil) }
        let rest = comment[newline...].drop { $0 == "\n" }
        return (String(comment[..<newline]), rest.isEmpty ? nil : String(rest))
    }
}
