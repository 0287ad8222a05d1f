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
    var cast: StaticString?

    var isStar: Bool { field.name == "*" && key == nil }
}

/// One embedded resource and the relationship it follows.
struct EmbedPlan: Sendable {
    /// The key it is returned under (alias, else the relation as written).
    var name: String
    var relationship: Relationship
    var isInner: Bool
    var plan: ReadPlan
}

/// The types `::cast` may name in `select=`: a fixed list of literals, so a cast can never carry SQL.
enum CastType {
    static let allowed: [StaticString] = [
        "text", "varchar", "char", "bpchar", "name", "citext",
        "int", "int2", "int4", "int8", "smallint", "integer", "bigint",
        "numeric", "decimal", "real", "float4", "float8", "double precision",
        "bool", "boolean", "json", "jsonb", "uuid", "date", "time", "timetz",
        "timestamp", "timestamptz", "interval", "money",
    ]

    /// The cast as SQL, or 400 `42704` as Postgres words an unknown type.
    static func checked(_ name: String) throws(RESTError) -> StaticString {
        let normalized = name.lowercased()
        guard let type = allowed.first(where: { $0.description == normalized }) else { throw .undefinedType(name) }
        return type
    }
}
