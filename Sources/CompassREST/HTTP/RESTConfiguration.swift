import CompassHTTP
import Foundation

/// The REST API's settings.
///
/// ```swift
/// let configuration = try RESTConfiguration(reading: EnvironmentReader(ProcessInfo.processInfo.environment))
/// ```
/// `COMPASS_REST_MAX_BODY_BYTES` (default 1 MiB) caps write and RPC bodies,
/// `COMPASS_REST_MAX_REPLY_BYTES` (default 16 MiB) the JSON a reply carries,
/// `COMPASS_REST_MAX_EMBED_DEPTH` (default 8) how deeply `select=` may nest embeds,
/// `COMPASS_REST_SAFE_UPDATE` (default true) refuses PATCH and DELETE without a filter,
/// `COMPASS_REST_MAX_ROWS` (default none) caps the rows of reads and calls at every level,
/// `COMPASS_REST_TX_END` (PostgREST's `db-tx-end`, default `commit-allow-override`) how each
/// request's transaction ends and whether `Prefer: tx=rollback` may choose, and
/// `COMPASS_REST_SCHEMAS` (default `public`) the exposed schemas, comma-separated,
/// `COMPASS_REST_AGGREGATES` (PostgREST's `db-aggregates-enabled`, default false) whether `select=`
/// may aggregate (`count()`, `amount.sum()`, …),
/// `COMPASS_REST_DB_PLAN_ENABLED` (PostgREST's `db-plan-enabled`, default false) whether
/// `Accept: application/vnd.pgrst.plan` gets a request's `EXPLAIN`,
/// `COMPASS_REST_DB_PRE_REQUEST` (PostgREST's `db-pre-request`, default none) a function every
/// request calls first (``PreRequestFunction``; the login role's `pgrst.db_pre_request` wins),
/// `COMPASS_REST_APP_SETTINGS_<NAME>` (PostgREST's `app.settings.*`) `app.settings.<name>` in
/// every request's transaction, and
/// `COMPASS_REST_OPENAPI_MODE`, `COMPASS_REST_OPENAPI_SERVER_PROXY_URI` and
/// `COMPASS_REST_OPENAPI_SECURITY_ACTIVE` the OpenAPI description at the root (``OpenAPISettings``).
public struct RESTConfiguration: Sendable {
    /// The exposed schemas (PostgREST's `db-schemas`, `COMPASS_REST_SCHEMAS`): the first is the
    /// default; a request names another with `Accept-Profile` (GET, HEAD) or `Content-Profile`.
    public var schemas = ["public"]
    /// The default schema.
    public var schema: String { schemas[0] }
    /// Largest request body accepted, in bytes.
    public var maximumBodyBytes = 1 << 20
    /// Largest reply body sent, in bytes; Postgres withholds a larger one, so it never reaches the worker.
    public var maximumReplyBytes = 16 << 20
    /// How many embeds `select=` may nest inside each other (`a(b(c))` is 3); PostgREST has no
    /// limit, but each level is a lateral join, and the parser recurses once per level.
    public var maximumEmbedDepth = QueryParameters.defaultMaximumEmbedDepth
    /// Whether PATCH and DELETE need a filter, as Supabase's PostgREST with `pg-safeupdate` refuses
    /// `UPDATE`/`DELETE` without a `WHERE` clause (21000): one forgotten `.eq()` cannot empty a table.
    public var requiresFilteredWrites = true
    /// How a request's transaction ends; by default it commits unless `Prefer: tx=rollback` asks otherwise.
    public var transactionEnd = TransactionEnd.commitAllowOverride
    /// The most rows a read or a call returns at each level (PostgREST's `db-max-rows`,
    /// `COMPASS_REST_MAX_ROWS`); nil for no limit. Writes return every row they touched.
    public var maximumRows: Int?
    /// Whether `select=` may name aggregates (`count()`, `amount.sum()`, grouped by the other
    /// columns). Off by default, as PostgREST: one request could make Postgres aggregate a whole table.
    public var allowsAggregates = false
    /// Whether `Accept: application/vnd.pgrst.plan` answers with the request's `EXPLAIN` (PostgREST's
    /// `db-plan-enabled`). Off by default, as PostgREST: a plan tells how the data is laid out, and
    /// `options=analyze` runs the statement.
    public var allowsPlans = false
    /// What `GET /rest/v1/` describes, and where it says the API lives.
    public var openAPI = OpenAPISettings()
    /// `COMPASS_REST_EXTRA_SEARCH_PATH` (PostgREST's `db-extra-search-path`, default `public`):
    /// schemas on every request's search path after the exposed one, comma-separated.
    public var extraSearchPath = ["public"]
    /// `COMPASS_REST_SERVER_TIMING` (PostgREST's `server-timing-enabled`, default false): a
    /// `Server-Timing` header with each phase's milliseconds (``ServerTiming``).
    public var serverTiming = false
    /// `COMPASS_REST_DB_PRE_REQUEST` (PostgREST's `db-pre-request`): the function each request
    /// calls before its statement, unless the login role names one (`pgrst.db_pre_request`,
    /// ``SchemaCache/inDatabaseSettings``), which wins as in PostgREST.
    public var preRequest: PreRequestFunction?
    /// `COMPASS_REST_APP_SETTINGS_<NAME>=value` (PostgREST's `app.settings.*`, `PGRST_APP_SETTINGS_*`):
    /// `app.settings.<name>` (lower-cased) set in every request's transaction, for SQL that reads
    /// `current_setting('app.settings.<name>')`. Any role's SQL can read them.
    public var appSettings: [(name: String, value: String)] = []

    /// The defaults.
    public init() {}

    /// Reads the environment; a malformed value throws naming the variable.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        if let bytes = try environment.positiveInteger("COMPASS_REST_MAX_BODY_BYTES") { maximumBodyBytes = bytes }
        if let bytes = try environment.positiveInteger("COMPASS_REST_MAX_REPLY_BYTES") { maximumReplyBytes = bytes }
        // Bounded: the select parser recurses once per level.
        if let depth = try environment.integer("COMPASS_REST_MAX_EMBED_DEPTH", in: 1...64) { maximumEmbedDepth = depth }
        if let safe = try environment.boolean("COMPASS_REST_SAFE_UPDATE") { requiresFilteredWrites = safe }
        maximumRows = try environment.positiveInteger("COMPASS_REST_MAX_ROWS")
        if let aggregates = try environment.boolean("COMPASS_REST_AGGREGATES") { allowsAggregates = aggregates }
        if let timing = try environment.boolean("COMPASS_REST_SERVER_TIMING") { serverTiming = timing }
        if let plans = try environment.boolean("COMPASS_REST_DB_PLAN_ENABLED") { allowsPlans = plans }
        preRequest = environment.string("COMPASS_REST_DB_PRE_REQUEST").flatMap(PreRequestFunction.init)
        let appPrefix = "COMPASS_REST_APP_SETTINGS_"
        for variable in environment.names(withPrefix: appPrefix) {
            let name = variable.dropFirst(appPrefix.count)
            // Postgres takes letters, digits and `_` in a setting's name; anything else would fail every request.
            let isLetter: (UInt8) -> Bool = { $0 == UInt8(ascii: "_") || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
            guard let first = name.utf8.first, isLetter(first), name.utf8.allSatisfy({ isLetter($0) || (0x30...0x39).contains($0) }) else {
                throw ConfigurationError(
                    variable, problem: "names a setting Postgres cannot hold (a letter or _, then letters, digits and _, after COMPASS_REST_APP_SETTINGS_)")
            }
            if let value = environment.string(variable) { appSettings.append(("app.settings." + name.lowercased(), value)) }
        }
        if let list = environment.string("COMPASS_REST_EXTRA_SEARCH_PATH") {
            extraSearchPath = list.split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        }
        if let text = environment.string("COMPASS_REST_SCHEMAS") {
            let names = text.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespaces) }
            guard !names.isEmpty, !names.contains(where: \.isEmpty), Set(names).count == names.count else {
                throw ConfigurationError("COMPASS_REST_SCHEMAS", value: text, problem: "is not a comma-separated list of distinct schema names")
            }
            schemas = names
        }
        if let text = environment.string("COMPASS_REST_TX_END") {
            guard let end = TransactionEnd(rawValue: text) else {
                let names = TransactionEnd.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError("COMPASS_REST_TX_END", value: text, problem: "is not one of \(names)")
            }
            transactionEnd = end
        }
        openAPI = try OpenAPISettings(reading: environment)
    }
}

/// PostgREST's `db-tx-end`: whether requests commit or roll back, and whether `Prefer: tx=` may override that.
public enum TransactionEnd: String, Sendable, CaseIterable {
    case commit
    case commitAllowOverride = "commit-allow-override"
    case rollback
    case rollbackAllowOverride = "rollback-allow-override"

    /// Whether a request asking for `preference` (if anything) ends in a rollback.
    func rollsBack(asking preference: Preferences.Transaction?) -> Bool {
        switch self {
        case .commit: false
        case .rollback: true
        case .commitAllowOverride: preference == .rollback
        case .rollbackAllowOverride: preference != .commit
        }
    }

    /// Whether `Prefer: tx=` is honoured (and reported as applied).
    var allowsOverride: Bool { self == .commitAllowOverride || self == .rollbackAllowOverride }
}
