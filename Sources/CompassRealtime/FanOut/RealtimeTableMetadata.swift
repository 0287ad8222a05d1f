import CompassTokens

/// A table's schema-qualified name.
public struct RealtimeTableName: Sendable, Hashable, CustomStringConvertible {
    public var schema: String
    public var table: String

    public init(schema: String, table: String) {
        self.schema = schema
        self.table = table
    }

    public var description: String { "\(schema).\(table)" }
}

/// One column, as the catalog describes it.
public struct RealtimeColumn: Sendable, Hashable {
    /// The column name.
    public var name: String
    /// The name quoted for SQL (`quote_ident`).
    public var quotedName: String
    /// `pg_type.typname` (`int8`, `uuid`, `_text`): what `columns[].type` reports.
    public var typeName: String
    /// `format_type(...)`: a spelling SQL casts accept (`bigint`, `character varying(20)`).
    public var sqlType: String
    /// How filters compare its values.
    public var kind: RealtimeValueKind
    /// Part of the primary key.
    public var isPrimaryKey: Bool
    /// Part of the replica identity index (when the table uses one).
    public var isReplicaIdentityIndex: Bool
    /// The roles that may SELECT it.
    public var selectableBy: Set<APIRole>
    /// `format_type(type, NULL)`: the type without its length or precision, which filter
    /// values are cast to (as Supabase Realtime casts them); nil means `sqlType`.
    public var castType: String? = nil
}

/// What the fan-out needs to know about one table: columns, key, RLS, privileges.
public struct RealtimeTableMetadata: Sendable {
    /// Schema and table.
    public var name: RealtimeTableName
    /// `"schema"."table"`, quoted for SQL.
    public var quotedName: String
    /// Columns in table order.
    public var columns: [RealtimeColumn]
    /// Row-level security is enabled: visibility must be checked per row.
    public var hasRowSecurity: Bool
    /// Registered in `realtime.enabled_tables`.
    public var isEnabled: Bool
    /// `pg_class.relreplident`: d(efault: key), f(ull), i(ndex), n(othing).
    public var replicaIdentity: String
    private var byName: [String: Int]
    /// What each role sees of the table.
    public private(set) var views: [APIRole: RoleView]

    /// The part of a table one role may read.
    public struct RoleView: Sendable {
        /// Names of the columns the role may SELECT.
        public var visibleColumns: Set<String>
        /// The role may SELECT every column (records pass through unchanged).
        public var seesEveryColumn: Bool
        /// The role may SELECT every key column (needed for any delivery).
        public var canReadKey: Bool
        /// The `columns` array of change events, pre-encoded.
        public var columnsJSON: String
    }

    /// Builds metadata from catalog facts.
    public init(
        name: RealtimeTableName, quotedName: String, columns: [RealtimeColumn], hasRowSecurity: Bool, isEnabled: Bool,
        replicaIdentity: String
    ) {
        self.name = name
        self.quotedName = quotedName
        self.columns = columns
        self.hasRowSecurity = hasRowSecurity
        self.isEnabled = isEnabled
        self.replicaIdentity = replicaIdentity
        self.byName = Dictionary(columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var views: [APIRole: RoleView] = [:]
        let keyColumns = columns.filter(\.isPrimaryKey)
        for role in APIRole.allCases {
            let visible = columns.filter { $0.selectableBy.contains(role) }
            var json = "["
            for (index, column) in visible.enumerated() {
                if index > 0 { json += "," }
                json += #"{"name":"# + RealtimeJSON.quoted(column.name) + #","type":"# + RealtimeJSON.quoted(column.typeName) + "}"
            }
            json += "]"
            views[role] = RoleView(
                visibleColumns: Set(visible.map(\.name)),
                seesEveryColumn: visible.count == columns.count,
                canReadKey: !keyColumns.isEmpty && keyColumns.allSatisfy { $0.selectableBy.contains(role) },
                columnsJSON: json)
        }
        self.views = views
    }

    /// The column named `name`, if the table has it.
    public func column(named name: String) -> RealtimeColumn? {
        byName[name].map { columns[$0] }
    }

    /// The primary key's columns, in table order.
    public var primaryKey: [RealtimeColumn] { columns.filter(\.isPrimaryKey) }

    /// The columns an old row carries (what the replica identity would provide).
    public var oldRecordColumns: Set<String> {
        switch replicaIdentity {
        case "f": return Set(columns.map(\.name))
        case "n": return []
        case "i": return Set(columns.filter(\.isReplicaIdentityIndex).map(\.name))
        default: return Set(primaryKey.map(\.name))
        }
    }

    /// What `role` sees.
    public func view(for role: APIRole) -> RoleView {
        views[role]!
    }
}
