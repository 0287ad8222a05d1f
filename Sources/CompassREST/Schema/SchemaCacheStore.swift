import Logging
import Postgres

/// Holds the current ``SchemaCache``: loaded on first use, replaced on reload.
///
/// ```swift
/// let cache = try await store.current()
/// ```
public actor SchemaCacheStore {
    private let pool: PostgresPool
    private let schema: String
    private let logger: Logger
    private var cache: SchemaCache?
    /// Bumped by every reload, so tests can wait for one.
    public private(set) var generation = 0

    /// A store that reads `schema` through `pool`.
    public init(pool: PostgresPool, schema: String = "public", logger: Logger) {
        self.pool = pool
        self.schema = schema
        self.logger = logger
    }

    /// The cache, loading it if this is the first request.
    public func current() async throws -> SchemaCache {
        if let cache { return cache }
        return try await reload()
    }

    /// Reads the catalog again (on `NOTIFY pgrst, 'reload schema'` or after a LISTEN gap).
    @discardableResult
    public func reload() async throws -> SchemaCache {
        var loaded = try await Self.fetch(schema: schema, through: pool)
        generation += 1
        loaded.generation = generation
        cache = loaded
        logger.debug(
            "schema cache loaded",
            metadata: ["rest.tables": "\(loaded.tables.count)", "rest.functions": "\(loaded.functions.count)"])
        return loaded
    }

    /// Reads the catalog outside the actor, so the pool's closure is not actor-isolated.
    private nonisolated static func fetch(schema: String, through pool: PostgresPool) async throws -> SchemaCache {
        try await pool.withConnection { try await SchemaCache.load(schema: schema, on: $0) }
    }
}
