/// A read resolved against the schema cache: every name checked, every embed tied to one
/// relationship. The SQL builders turn it into a statement; nothing here is SQL yet.
struct ReadPlan: Sendable {
    /// The table read at this level.
    var table: TableInfo
    /// The SQL alias of this level (unique within the statement).
    var alias: String
    /// Selected columns, in request order.
    var columns: [PlannedColumn]
    /// Embedded resources, in request order.
    var embeds: [EmbedPlan]
    /// Filters and logic trees, all ANDed.
    var conditions: [LogicTree]
    /// `order=` at this level.
    var order: [OrderTerm]
    /// `limit`/`offset` at this level.
    var range: RowRange
    /// A to-one spread's level: its aggregates are applied by the level it spreads into (see
    /// ``hoistedAggregates``), so they count the parent's rows, as PostgREST hoists them.
    var hoistsAggregates = false

    /// The embed a filter, order or relation term names (by alias, else relation).
    func embed(named name: String) -> EmbedPlan? {
        embeds.first { $0.name == name }
    }
}

/// A selected column: `*`, or a column (maybe with a JSON path) returned under a key, maybe cast.
struct PlannedColumn: Sendable {
    var field: FieldReference
    /// The key in the JSON object; nil for `*`.
    var key: String?
    /// A checked cast (see ``CastType``).
    var cast: CastTarget?
    /// The column's `domain -> json` data representation, applied before any cast.
    var format: CastFunction?
    /// An aggregate over the column (`*` with `count`: the rows), applied after ``cast``.
    var aggregate: AggregateFunction?
    /// A checked cast of the aggregate's result.
    var aggregateCast: CastTarget?

    var isStar: Bool { field.name == "*" && key == nil }
    /// `count()`: counts rows, not a column's values.
    var countsRows: Bool { field.name == "*" && aggregate == .count }
}

/// One embedded resource and the relationship it follows.
struct EmbedPlan: Sendable {
    /// The key it is returned under (alias, else the relation as written).
    var name: String
    var relationship: Relationship
    var isInner: Bool
    var plan: ReadPlan
    /// `...relation(…)`: its keys go into the parent object (as arrays when to-many).
    var isSpread = false
    /// The lateral join's name in the parent (`pgrst_N`): what the parent's select list, filters
    /// and orders read the embed by. The embedded table itself is `plan.alias` (`cities_1`)
    /// inside the join only, so a column named like it (`address.address_1`) is never mistaken
    /// for the embed, or the embed for the column.
    var joinAlias: String

    /// `clients()`: an embed that selects nothing (nor do its own embeds) joins and filters, but
    /// adds no key to the parent, as PostgREST answers it.
    var isHidden: Bool { plan.columns.isEmpty && plan.embeds.allSatisfy(\.isHidden) }

    /// The keys this level's rows have, in order: `*` stands for the table's columns, a spread
    /// embed for its own keys.
    var outputKeys: [String] { plan.outputKeys }
}

extension ReadPlan {
    /// The keys of the objects this level produces.
    var outputKeys: [String] {
        var keys: [String] = []
        for column in columns {
            if column.isStar { keys += table.columns.map(\.name) } else if let key = column.key { keys.append(key) }
        }
        for embed in embeds where !embed.isHidden {
            if embed.isSpread { keys += embed.outputKeys } else { keys.append(embed.name) }
        }
        return keys
    }
}

/// The type a `::cast` in `select=` names, checked before any SQL is built.
enum CastTarget: Sendable, Hashable {
    /// A built-in type by one of its SQL names (`int`, `double precision`), as a fixed literal.
    case builtin(StaticString)
    /// A type the catalog has under that name (`tsvector`, an enum of the schema), written quoted.
    case catalog(String)

    static func == (lhs: CastTarget, rhs: CastTarget) -> Bool {
        switch (lhs, rhs) {
        case (.builtin(let a), .builtin(let b)): a.description == b.description
        case (.catalog(let a), .catalog(let b)): a == b
        default: false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .builtin(let name): hasher.combine(name.description)
        case .catalog(let name): hasher.combine(name)
        }
    }
}

/// The types `::cast` may name in `select=`: the common built-in names (aliases such as `int`
/// and `double precision` among them, which are no type's own name), else any type the catalog
/// holds in `pg_catalog` or a schema the request searches, as PostgREST casts to any type.
enum CastType {
    static let allowed: [StaticString] = [
        "text", "varchar", "char", "bpchar", "name", "citext",
        "int", "int2", "int4", "int8", "smallint", "integer", "bigint",
        "numeric", "decimal", "real", "float4", "float8", "double precision",
        "bool", "boolean", "json", "jsonb", "uuid", "date", "time", "timetz",
        "timestamp", "timestamptz", "interval", "money",
        // Arrays of those, by Postgres's own names for them (`::_int4` is `int4[]`).
        "_text", "_varchar", "_bpchar", "_name", "_int2", "_int4", "_int8", "_numeric", "_float4", "_float8",
        "_bool", "_json", "_jsonb", "_uuid", "_date", "_time", "_timetz", "_timestamp", "_timestamptz", "_interval",
    ]

    /// The cast, or 400 `42704` as Postgres words an unknown type. Names fold to lower case,
    /// as Postgres folds an unquoted name.
    static func checked(_ name: String, catalogTypes: Set<String>) throws(RESTError) -> CastTarget {
        let normalized = name.lowercased()
        if let type = allowed.first(where: { $0.description == normalized }) { return .builtin(type) }
        guard catalogTypes.contains(normalized) else { throw .undefinedType(name) }
        return .catalog(normalized)
    }
}
