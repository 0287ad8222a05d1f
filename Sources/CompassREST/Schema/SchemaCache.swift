/// What the REST API knows about the exposed schema: its tables and views with their
/// columns and keys, the foreign-key relationships between them, and its functions.
///
/// ```swift
/// let cache = try await SchemaCache.load(schema: "public", on: connection)
/// let table = try cache.table(named: "interactions")   // or PGRST205
/// ```
/// Every name in a request is looked up here before any SQL is built; identifiers that
/// reach SQL come from this cache, never from the request.
public struct SchemaCache: Sendable {
    /// The exposed schema (`public`).
    public var schema: String
    /// Tables and views by name.
    public var tables: [String: TableInfo]
    /// Relationships by the name of the table they start from.
    public var relationships: [String: [Relationship]]
    /// Functions by name (overloads share a name).
    public var functions: [String: [FunctionInfo]]
    /// Which load of the store this is (0 when built by hand); REST statements carry it.
    public var generation = 0
    /// Comments, types and privileges for the OpenAPI description, when the store reads them.
    public var documentation: SchemaDocumentation?
    /// Each role's own settings (`ALTER ROLE … SET`, this database's first) that any user may
    /// set, read at load as PostgREST reads them; every request as the role applies them. Nil
    /// when the cache was built by hand (requests then look up `statement_timeout` themselves).
    public var roleSettings: [String: [String: String]]?
    /// The login role's `pgrst.*` settings without the prefix (PostgREST's in-database
    /// configuration, ``inDatabaseSettingsQuery()``), read at load and at `NOTIFY pgrst, 'reload config'`.
    public var inDatabaseSettings: [String: String] = [:]
    /// The names of the types a `::cast` may name (``CastType``): those of `pg_catalog` and
    /// of the schemas requests search, but pseudo-types. Empty when built by hand.
    public var typeNames: Set<String> = []
    /// Aggregates and functions that send replies in media types of their own (``MediaHandlers``).
    public var mediaHandlers = MediaHandlers()

    /// Makes a cache from parts (the loader and tests build them).
    public init(schema: String, tables: [String: TableInfo], relationships: [String: [Relationship]], functions: [String: [FunctionInfo]]) {
        self.schema = schema
        self.tables = tables
        self.relationships = relationships
        self.functions = functions
    }

    /// The pre-request function: the login role's `pgrst.db_pre_request` if it has one (an empty
    /// value turns the configured one off), else `configured` (`COMPASS_REST_DB_PRE_REQUEST`).
    public func preRequest(configured: PreRequestFunction?) -> PreRequestFunction? {
        guard let setting = inDatabaseSettings["db_pre_request"] else { return configured }
        return PreRequestFunction(setting)
    }

    /// The table or view `name`, or PostgREST's 404 PGRST205 with a "Perhaps you meant" hint.
    public func table(named name: String) throws(RESTError) -> TableInfo {
        if let table = tables[name] { return table }
        let suggestion = FuzzyMatch.best(for: name, among: tables.keys, minimumScore: 0.75)
        throw .tableNotFound(schema: schema, name: name, suggestion: suggestion)
    }
}

/// A table or view of the exposed schema.
public struct TableInfo: Sendable, Hashable {
    /// Its name.
    public var name: String
    /// A view (or materialized view) rather than a table.
    public var isView: Bool
    /// Columns in table order.
    public var columns: [ColumnInfo]
    /// The primary key's columns (empty for views and keyless tables).
    public var primaryKey: [String]
    /// Each unique constraint's (and the primary key's) column sets.
    public var uniqueKeys: [[String]]
    /// Functions of its row that `select=`, filters and `order=` use like columns, by name.
    public var computedFields: [String: ComputedField] = [:]
    /// The writes it takes: every one for a table, what its rules or triggers allow for a view.
    public var writes = Writes.all

    /// `pg_relation_is_updatable`'s bits.
    public struct Writes: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let update = Writes(rawValue: 4)
        public static let insert = Writes(rawValue: 8)
        public static let delete = Writes(rawValue: 16)
        public static let all: Writes = [.insert, .update, .delete]
    }

    /// PostgREST's `Allow` for an `OPTIONS` on it: reads, then the writes it takes (PUT needs a primary key).
    var allowedMethods: String {
        var methods = ["OPTIONS", "GET", "HEAD"]
        if writes.contains(.insert) { methods.append("POST") }
        if writes.contains(.insert), writes.contains(.update), !primaryKey.isEmpty { methods.append("PUT") }
        if writes.contains(.update) { methods.append("PATCH") }
        if writes.contains(.delete) { methods.append("DELETE") }
        return methods.joined(separator: ",")
    }

    /// Makes a table description.
    public init(name: String, isView: Bool, columns: [ColumnInfo], primaryKey: [String], uniqueKeys: [[String]]) {
        self.name = name
        self.isView = isView
        self.columns = columns
        self.primaryKey = primaryKey
        self.uniqueKeys = uniqueKeys
    }

    /// The column `name`, if the table has one.
    public func column(_ name: String) -> ColumnInfo? {
        columns.first { $0.name == name }
    }
}

/// A computed field, as PostgREST serves them: a function of the exposed schema whose one
/// parameter is a table's row type (`always_true(items)`), read like a column of that table.
public struct ComputedField: Sendable, Hashable {
    /// The exposed schema, which holds both the function and the table.
    public var schema: String
    /// The function's name, which is the field's name.
    public var function: String
    /// The table (or view) whose row it takes: the argument is cast to that type, so overloads
    /// for other tables are never picked.
    public var table: String
    /// What it returns, as `format_type` prints it (it decides JSON paths and full-text search).
    public var type: String
}

/// One column: name, type as `format_type` spells it, and whether it has a default.
public struct ColumnInfo: Sendable, Hashable {
    public var name: String
    /// The SQL type (`uuid`, `timestamp with time zone`, `text[]`); safe to splice, it comes from the catalog.
    public var type: String
    public var isNullable: Bool
    /// The default expression, as the catalog prints it.
    public var defaultExpression: String?
    /// The casts that show, filter and write it, when its type is a domain that has them.
    public var representations = DataRepresentations()
    /// For a domain, the type it is over in the end (`tsvector` for a domain of a domain of it).
    public var baseType: String?

    public init(name: String, type: String, isNullable: Bool, defaultExpression: String?) {
        self.name = name
        self.type = type
        self.isNullable = isNullable
        self.defaultExpression = defaultExpression
    }
}

/// A foreign-key relationship seen from one of its two tables.
public struct Relationship: Sendable, Hashable {
    /// How many rows of ``foreignTable`` belong to one row of ``table``.
    public enum Cardinality: String, Sendable, Hashable {
        case manyToOne = "many-to-one", oneToMany = "one-to-many", oneToOne = "one-to-one", manyToMany = "many-to-many"
    }

    /// The table the embed starts from.
    public var table: String
    /// The embedded table.
    public var foreignTable: String
    /// The constraint's name (empty for many-to-many: see ``junction``).
    public var constraint: String
    /// Column pairs: (column of ``table``, column of ``foreignTable``); empty for many-to-many.
    public var columns: [(String, String)]
    public var cardinality: Cardinality
    /// For one-to-one: whether ``table`` holds the foreign key.
    public var holdsForeignKey: Bool
    /// For many-to-many: the table whose rows pair the two.
    public var junction: Junction?
    /// For a computed relationship: the function of ``table``'s row that returns the rows of
    /// ``foreignTable`` (no columns; an embed names it by the function's name).
    public var function: ComputedField?

    /// Whether the embed returns one object (else an array).
    public var isToOne: Bool { cardinality != .oneToMany && cardinality != .manyToMany }
    /// Both ends are the same table.
    public var isSelf: Bool { table == foreignTable }

    public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
        lhs.table == rhs.table && lhs.foreignTable == rhs.foreignTable && lhs.constraint == rhs.constraint
            && lhs.cardinality == rhs.cardinality && lhs.columns.elementsEqual(rhs.columns, by: ==) && lhs.junction == rhs.junction
            && lhs.function == rhs.function
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(table)
        hasher.combine(foreignTable)
        hasher.combine(constraint)
        hasher.combine(cardinality)
        hasher.combine(function?.function)
    }
}

/// The table between the two ends of a many-to-many relationship: its foreign keys to both
/// are part of its primary key, as PostgREST requires of a junction.
public struct Junction: Sendable, Hashable {
    /// The junction table.
    public var table: String
    /// Its foreign key to the origin, and to the embedded table.
    public var sourceConstraint: String
    public var targetConstraint: String
    /// (column of the origin, column of the junction) pairs.
    public var sourceColumns: [(String, String)]
    /// (column of the embedded table, column of the junction) pairs.
    public var targetColumns: [(String, String)]

    public static func == (lhs: Junction, rhs: Junction) -> Bool {
        lhs.table == rhs.table && lhs.sourceConstraint == rhs.sourceConstraint && lhs.targetConstraint == rhs.targetConstraint
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(table)
        hasher.combine(sourceConstraint)
        hasher.combine(targetConstraint)
    }
}

/// A function callable at `/rpc/{name}`.
public struct FunctionInfo: Sendable, Hashable {
    /// One input parameter.
    public struct Parameter: Sendable, Hashable {
        public var name: String
        /// The SQL type, from the catalog.
        public var type: String
        public var hasDefault: Bool
        /// `VARIADIC`: passed as `VARIADIC name := array`, and repeated query or form parameters fill it.
        public var isVariadic = false
    }

    public var name: String
    public var parameters: [Parameter]
    /// `SETOF …` / `TABLE (…)`.
    public var returnsSet: Bool
    /// Returns a scalar (or array of scalars), not rows.
    public var returnsScalar: Bool
    /// Returns `void`.
    public var returnsVoid: Bool
    /// The exposed table whose row type it returns, if any.
    public var returnTable: String?
    /// Its `OUT`/`INOUT`/`TABLE (…)` columns, which name and type the rows it returns.
    public var outputColumns: [ColumnInfo] = []
    /// What the function promises about side effects.
    public var volatility: Volatility
    /// The name of the type it returns, as the catalog spells it (a domain `"text/plain"` reads `text/plain`).
    public var returnTypeName: String?

    /// `pg_proc.provolatile`. GET and HEAD run any function in a read-only transaction, and POST
    /// every function but a volatile one, so a function that writes fails there with 25006 (405),
    /// as under PostgREST.
    public enum Volatility: String, Sendable, Hashable, Decodable {
        case volatile = "v", stable = "s", immutable = "i"
    }

    /// The rows it returns as a table (named after the function) that `select=`, filters and
    /// `order=` can address, when its output columns are declared.
    var outputTable: TableInfo? {
        guard !outputColumns.isEmpty, !returnsScalar else { return nil }
        return TableInfo(name: name, isView: true, columns: outputColumns, primaryKey: [], uniqueKeys: [])
    }
}
