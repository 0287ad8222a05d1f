import CompassHTTP

/// The REST API's settings.
///
/// ```swift
/// let configuration = try RESTConfiguration(reading: EnvironmentReader(ProcessInfo.processInfo.environment))
/// ```
/// `COMPASS_REST_MAX_BODY_BYTES` (default 1 MiB) caps write and RPC bodies,
/// `COMPASS_REST_MAX_REPLY_BYTES` (default 16 MiB) the JSON a reply carries,
/// `COMPASS_REST_MAX_EMBED_DEPTH` (default 8) how deeply `select=` may nest embeds, and
/// `COMPASS_REST_SAFE_UPDATE` (default true) refuses PATCH and DELETE without a filter.
public struct RESTConfiguration: Sendable {
    /// The exposed schema (PostgREST's `db-schemas`); only `public` is served.
    public var schema = "public"
    /// Largest request body accepted, in bytes.
    public var maximumBodyBytes = 1 << 20
    /// Largest reply body sent, in bytes; Postgres withholds a larger one, so it never reaches the worker.
    public var maximumReplyBytes = 16 << 20
    /// How many embeds `select=` may nest inside each other (`a(b(c))` is 3); PostgREST has no
    /// limit, but each level is a lateral join, and the parser recurses once per level.
    public var maximumEmbedDepth = 8
    /// Whether PATCH and DELETE need a filter, as Supabase's PostgREST with `pg-safeupdate` refuses
    /// `UPDATE`/`DELETE` without a `WHERE` clause (21000): one forgotten `.eq()` cannot empty a table.
    public var requiresFilteredWrites = true

    /// The defaults.
    public init() {}

    /// Reads the environment; a malformed value throws naming the variable.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        if let bytes = try environment.positiveInteger("COMPASS_REST_MAX_BODY_BYTES") { maximumBodyBytes = bytes }
        if let bytes = try environment.positiveInteger("COMPASS_REST_MAX_REPLY_BYTES") { maximumReplyBytes = bytes }
        if let depth = try environment.positiveInteger("COMPASS_REST_MAX_EMBED_DEPTH") { maximumEmbedDepth = depth }
        if let safe = try environment.boolean("COMPASS_REST_SAFE_UPDATE") { requiresFilteredWrites = safe }
    }
}
