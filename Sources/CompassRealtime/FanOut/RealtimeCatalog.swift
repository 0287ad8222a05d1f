import CompassTokens
import Foundation
import Postgres

/// Table metadata from the Postgres catalog, cached.
///
/// Identifiers come back already quoted by the server (`quote_ident`), so SQL built from
/// them never splices raw names. An entry is reloaded when a row shows a column the
/// cache does not know (`ALTER TABLE … ADD COLUMN`), and every entry, like the list of
/// enabled tables, is re-read after a few seconds: a migration that changes a column's
/// type, the replica identity or a grant is seen without a restart.
public actor RealtimeCatalog {
    let database: RealtimeDatabase
    private var tables: [RealtimeTableName: (metadata: RealtimeTableMetadata, readAt: ContinuousClock.Instant)] = [:]
    private var enabled: (names: [RealtimeTableName], readAt: ContinuousClock.Instant)?
    /// How long the list of enabled tables is trusted.
    public var enabledTablesLifetime: Duration = .seconds(5)
    /// How long a table's metadata is trusted.
    public let tableLifetime: Duration
    /// A join's look-up is reading the catalog; the others wait in `joinsWaiting` (``takeJoinTurn()``).
    private var joinReading = false
    private var joinsWaiting: [CheckedContinuation<Void, Never>] = []

    /// Makes an empty cache.
    public init(database: RealtimeDatabase, tableLifetime: Duration = .seconds(5)) {
        self.database = database
        self.tableLifetime = tableLifetime
    }

    /// The table's metadata; nil when no such table exists. A join (`forJoin`) that must read the
    /// catalog waits for its turn (``takeJoinTurn()``); the fan-out never waits for joins.
    public func metadata(for name: RealtimeTableName, forJoin: Bool = false) async throws -> RealtimeTableMetadata? {
        if let cached = freshMetadata(name) { return cached }
        guard forJoin else { return try await loadAndKeep(name, timeout: nil) }
        await takeJoinTurn()
        defer { endJoinTurn() }
        // Another join may have read it while this one waited.
        if let cached = freshMetadata(name) { return cached }
        return try await loadAndKeep(name, timeout: Self.joinReadTimeout)
    }

    private func freshMetadata(_ name: RealtimeTableName) -> RealtimeTableMetadata? {
        guard let cached = tables[name], ContinuousClock.now - cached.readAt < tableLifetime else { return nil }
        return cached.metadata
    }

    private func loadAndKeep(_ name: RealtimeTableName, timeout: Duration?) async throws -> RealtimeTableMetadata? {
        let loaded = try await load(name, timeout: timeout)
        tables[name] = loaded.map { ($0, .now) }  // a missing table is asked again next time
        return loaded
    }

    /// How long a join's catalog read may take: a read stuck behind a lock would otherwise hold
    /// every other join's turn for as long (it fails the binding instead, "database unavailable").
    static let joinReadTimeout: Duration = .seconds(5)

    /// Waits until no other join is reading the catalog, then holds the turn until
    /// ``endJoinTurn()``. Joins naming many tables, or missing ones (each a catalog query),
    /// then use one pool connection at a time, never the ones the change poller and the
    /// visibility checks need: a flood of such joins slowed every delivery from 50 ms to 470.
    /// Joins the cache answers never wait.
    func takeJoinTurn() async {
        guard joinReading else {
            joinReading = true
            return
        }
        // Woken by ``endJoinTurn()`` with the turn handed over: first come, first served.
        await withCheckedContinuation { joinsWaiting.append($0) }
    }

    /// Ends the turn ``takeJoinTurn()`` took: hands it to the longest-waiting join, if any.
    func endJoinTurn() {
        if joinsWaiting.isEmpty {
            joinReading = false
        } else {
            joinsWaiting.removeFirst().resume()
        }
    }

    /// Forgets a table so the next lookup reads the catalog again.
    public func invalidate(_ name: RealtimeTableName) {
        tables[name] = nil
    }

    /// The realtime-enabled tables of `schema` (for a join, read in its turn: see ``metadata(for:forJoin:)``).
    public func enabledTables(in schema: String, forJoin: Bool = false) async throws -> [RealtimeTableName] {
        if let enabled, ContinuousClock.now - enabled.readAt < enabledTablesLifetime {
            return enabled.names.filter { $0.schema == schema }
        }
        if forJoin {
            await takeJoinTurn()
            defer { endJoinTurn() }
            if let enabled, ContinuousClock.now - enabled.readAt < enabledTablesLifetime {
                return enabled.names.filter { $0.schema == schema }
            }
            return try await readEnabledTables(timeout: Self.joinReadTimeout).filter { $0.schema == schema }
        }
        return try await readEnabledTables(timeout: nil).filter { $0.schema == schema }
    }

    private func readEnabledTables(timeout: Duration?) async throws -> [RealtimeTableName] {
        let result = try await database.asServiceRole([
            """
            SELECT n.nspname::text, c.relname::text
              FROM realtime.enabled_tables AS e
              JOIN pg_catalog.pg_class AS c ON c.oid = e.relid
              JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
             ORDER BY 1, 2
            """
        ], timeout: timeout)[0]
        let names = try result.map { RealtimeTableName(schema: try $0.decode(String.self, at: 0), table: try $0.decode(String.self, at: 1)) }
        enabled = (names, .now)
        return names
    }

    private func load(_ name: RealtimeTableName, timeout: Duration?) async throws -> RealtimeTableMetadata? {
        let query: PostgresQuery = """
            SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname),
                   c.relrowsecurity,
                   c.relreplident::text,
                   EXISTS (SELECT 1 FROM realtime.enabled_tables AS e WHERE e.relid = c.oid),
                   a.attname::text,
                   quote_ident(a.attname),
                   t.typname::text,
                   t.typcategory::text,
                   format_type(a.atttypid, a.atttypmod),
                   COALESCE(a.attnum = ANY (pk.indkey::int2[]), false),
                   COALESCE(a.attnum = ANY (ri.indkey::int2[]), false),
                   has_column_privilege('anon', c.oid, a.attnum, 'SELECT'),
                   has_column_privilege('authenticated', c.oid, a.attnum, 'SELECT'),
                   has_column_privilege('service_role', c.oid, a.attnum, 'SELECT'),
                   (SELECT json_object_agg(e.enumlabel, e.enumsortorder)::text
                      FROM pg_catalog.pg_enum AS e WHERE e.enumtypid = t.oid),
                   format_type(a.atttypid, NULL)
              FROM pg_catalog.pg_class AS c
              JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace
              JOIN pg_catalog.pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
              JOIN pg_catalog.pg_type AS t ON t.oid = a.atttypid
              LEFT JOIN pg_catalog.pg_index AS pk ON pk.indrelid = c.oid AND pk.indisprimary
              LEFT JOIN pg_catalog.pg_index AS ri ON ri.indrelid = c.oid AND ri.indisreplident
             WHERE n.nspname = \(name.schema) AND c.relname = \(name.table) AND c.relkind IN ('r', 'p')
             ORDER BY a.attnum
            """
        let result = try await database.asServiceRole([query], timeout: timeout)[0]
        guard let first = result.first else { return nil }
        var columns: [RealtimeColumn] = []
        for row in result {
            var roles: Set<APIRole> = []
            for (offset, role) in [APIRole.anon, .authenticated, .serviceRole].enumerated()
            where try row.decode(Bool.self, at: 11 + offset) {
                roles.insert(role)
            }
            let typeName = try row.decode(String.self, at: 6)
            let enumSortOrder = try row.decode(String?.self, at: 14).map { try Self.sortOrder(fromJSON: $0) }
            columns.append(
                RealtimeColumn(
                    name: try row.decode(String.self, at: 4),
                    quotedName: try row.decode(String.self, at: 5),
                    typeName: typeName,
                    sqlType: try row.decode(String.self, at: 8),
                    kind: RealtimeValueKind(typeName: typeName, category: try row.decode(String.self, at: 7), enumSortOrder: enumSortOrder),
                    isPrimaryKey: try row.decode(Bool.self, at: 9),
                    isReplicaIdentityIndex: try row.decode(Bool.self, at: 10),
                    selectableBy: roles,
                    castType: try row.decode(String.self, at: 15)))
        }
        return RealtimeTableMetadata(
            name: name,
            quotedName: try first.decode(String.self, at: 0),
            columns: columns,
            hasRowSecurity: try first.decode(Bool.self, at: 1),
            isEnabled: try first.decode(Bool.self, at: 3),
            replicaIdentity: try first.decode(String.self, at: 2))
    }

    /// An enum's labels and sort orders, from the JSON object the catalog query builds.
    private static func sortOrder(fromJSON text: String) throws -> [String: Double] {
        guard let labels = try RealtimeJSON(parsing: text).objectValue else {
            throw PostgresDecodingFailure("enum labels are not a JSON object")
        }
        return labels.compactMapValues { value in
            guard case .number(let order) = value else { return nil }
            return Double(order)
        }
    }
}
