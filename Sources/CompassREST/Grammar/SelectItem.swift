/// One step of a JSON path on a column: `->key`, `->>key`, `->0`.
public struct JSONPathStep: Sendable, Hashable {
    /// `->>` (text) rather than `->` (json).
    public var asText: Bool
    /// The key, or the index when ``isIndex``.
    public var key: String
    /// The operand is an array index (`->0`, `->-1`).
    public var isIndex: Bool
}

/// A column reference as the grammar spells it: a name plus an optional JSON path.
public struct FieldReference: Sendable, Hashable {
    /// The column name (`*` for every column in a select).
    public var name: String
    /// `->`/`->>` steps after the name.
    public var jsonPath: [JSONPathStep] = []
    /// The column's type as the catalog prints it, once the planner has found the column
    /// (nil while only parsed): it decides how a JSON path and a full-text search apply.
    var columnType: String?
    /// Set by the planner when the name is a computed field of the table, not a column.
    var computed: ComputedField?
    /// Set by the planner when the column's domain reads a filter's text through a cast (`text -> domain`).
    var parser: CastFunction?

    /// Whether the column holds json or jsonb (a path on anything else reads `to_jsonb` of it).
    var isJSON: Bool { columnType == "json" || columnType == "jsonb" }

    /// The key a JSON path selects under, as PostgREST names it: the last key, else the column.
    var defaultAlias: String {
        guard let last = jsonPath.last(where: { !$0.isIndex }) else { return name }
        return last.key
    }
}

/// One item of `select=`: a column (possibly renamed and cast) or an embedded resource.
public indirect enum SelectItem: Sendable, Hashable {
    /// `alias:column->path::cast`, or `*`.
    case column(SelectColumn)
    /// `alias:relation!hint!inner(items)`.
    case embed(EmbedSelect)

    var isEmbed: Bool {
        if case .embed = self { return true }
        return false
    }
}

/// A selected column.
public struct SelectColumn: Sendable, Hashable {
    /// The column (`*` for all).
    public var field: FieldReference
    /// The key it is returned under, when renamed.
    public var alias: String?
    /// A cast applied to the value (`::text`); with an aggregate, to its input.
    public var cast: String?
    /// `.sum()` and the like after the column (`count()` alone counts rows: its field is `*`).
    public var aggregate: AggregateFunction?
    /// A cast applied to the aggregate's result (`amount.sum()::text`).
    public var aggregateCast: String?

    /// Whether this is the `*` wildcard.
    public var isStar: Bool { field.name == "*" && field.jsonPath.isEmpty && aggregate == nil }
}

/// An embedded resource: rows of a related table, nested under the parent row.
public struct EmbedSelect: Sendable, Hashable {
    /// The related table (or a foreign-key column or constraint name, as PostgREST allows).
    public var relation: String
    /// The key it is returned under.
    public var alias: String?
    /// `!hint`: a column or constraint name that picks one relationship.
    public var hint: String?
    /// `!inner`: parents without a match are left out.
    public var isInner: Bool
    /// What to select from the related rows.
    public var items: [SelectItem]
    /// `...relation(…)`: the related columns are spread into the parent object.
    public var isSpread = false

    /// The key the embed is returned under, and the name filters address it by.
    public var name: String { alias ?? relation }
}
