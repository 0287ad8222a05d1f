import Logging
import Postgres

/// Holds the current ``SchemaCache`` of each exposed schema: loaded on first use, replaced on reload.
///
/// ```swift
/// let cache = try await store.current()              // the default (first) schema
/// let other = try await store.current(schema: "v2")  // one of `schemas`
/// ```
public actor SchemaCacheStore {
    private let pool: PostgresPool
    /// The exposed schemas; the first is the default.
    public nonisolated let schemas: [String]
    /// Whether each load also reads the OpenAPI description's ``SchemaDocumentation``.
    public nonisolated let documents: Bool
    /// The schemas requests search after the exposed one, whose views an exposed view may read through.
    public nonisolated let extraSchemas: [String]
    private let logger: Logger
    private var caches: [String: SchemaCache] = [:]
    /// Bumped by every reload, so tests can wait for one.
    public private(set) var generation = 0
    private var reloadsStarted = 0
    /// The first load while it runs: requests arriving meanwhile wait for it rather than each
    /// reading the whole catalog on a pooled connection of its own (ten cold requests, ten loads).
    private var firstLoad: Task<Void, any Error>?
    /// The unread in-database settings last warned about.
    private var warnedSettings: [String] = []

    /// A store that reads `schemas` through `pool` (and their documentation, with `documents`).
    public init(pool: PostgresPool, schemas: [String] = ["public"], searching extraSchemas: [String] = [], documents: Bool = false, logger: Logger) {
        precondition(!schemas.isEmpty, "at least one exposed schema")
        self.pool = pool
        self.schemas = schemas
        self.extraSchemas = extraSchemas
        self.documents = documents
        self.logger = logger
    }

    /// The cache of `schema` (the default one when nil), loading them all if this is the first request.
    public func current(schema: String? = nil) async throws -> SchemaCache {
        let name = schema ?? schemas[0]
        if let cache = caches[name] { return cache }
        if let firstLoad {
            try await firstLoad.value
        } else {
            let load = Task { try await self.reloadAll() }
            firstLoad = load
            defer { firstLoad = nil }
            try await load.value
        }
        guard let cache = caches[name] else { throw SchemaNotExposed(schema: name) }
        return cache
    }

    /// Reads the catalog again (on `NOTIFY pgrst, 'reload schema'` or after a LISTEN gap) and
    /// returns the default schema's cache.
    @discardableResult
    public func reload() async throws -> SchemaCache {
        try await reloadAll()
        return caches[schemas[0]]!
    }

    /// ``reload()``, but only when a load has begun: the first request loads the catalog anyway.
    public func reloadIfLoaded() async throws {
        guard reloadsStarted > 0 else { return }
        try await reloadAll()
    }

    private func reloadAll() async throws {
        var loaded: [String: SchemaCache] = [:]
        // Each load has its own number; `generation` moves only when its caches are installed, so a
        // waiter on it sees the new catalog, and a slower, older load never replaces a newer one.
        reloadsStarted += 1
        let next = reloadsStarted
        for schema in schemas {
            var cache = try await Self.fetch(schema: schema, searching: extraSchemas, documenting: documents, through: pool)
            cache.generation = next
            loaded[schema] = cache
            logger.debug(
                "schema cache loaded",
                metadata: ["rest.schema": "\(schema)", "rest.tables": "\(cache.tables.count)", "rest.functions": "\(cache.functions.count)"])
        }
        guard next > generation else { return }
        if let settings = loaded[schemas[0]]?.inDatabaseSettings { warnAboutUnreadSettings(settings) }
        caches = loaded
        generation = next
    }

    /// Names (never values: `pgrst.jwt_secret` may be one) the `pgrst.*` settings of the login role
    /// that PostgREST would read and this worker does not: they are set in its environment instead.
    private func warnAboutUnreadSettings(_ settings: [String: String]) {
        let unread = settings.keys.filter { $0 != "db_pre_request" }.sorted().map { "pgrst." + $0 }
        // Once per change of the list, not at every reload.
        guard !unread.isEmpty, unread != warnedSettings else { return }
        warnedSettings = unread
        logger.warning(
            "the login role's in-database settings other than pgrst.db_pre_request are not read; set COMPASS_REST_* instead",
            metadata: ["rest.settings": "\(unread.joined(separator: ", "))"])
    }

    /// Reads the catalog outside the actor, so the pool's closure is not actor-isolated.
    private nonisolated static func fetch(
        schema: String, searching extraSchemas: [String], documenting: Bool, through pool: PostgresPool
    ) async throws -> SchemaCache {
        try await pool.withConnection { try await SchemaCache.load(schema: schema, searching: extraSchemas, documenting: documenting, on: $0) }
    }
}

/// A schema asked of the store that is not one of its exposed schemas.
public struct SchemaNotExposed: Error {
    public var schema: String
}
