import Postgres

/// Accumulates one statement. SQL text gets in only three ways: as a literal written in this
/// module (a `StaticString`), as an identifier quoted here, or as catalog text (a type or a
/// default expression the schema cache read from Postgres); values only ever become `$n`
/// parameters, numbered here.
///
/// ```swift
/// var sql = SQLBuilder()
/// sql.append("SELECT * FROM "); sql.append(qualifiedName: table.name, in: schema); sql.append(" WHERE id = "); sql.bind(id)
/// ```
/// A runtime `String` has no way in as SQL: `grep catalogText` finds the one raw splice, as
/// `\(unescaped:)` marks it in `PostgresQuery`.
struct SQLBuilder {
    private(set) var text = ""
    private(set) var binds: [String?] = []
    /// Whether the statement is an `EXPLAIN` (``init(explaining:)``).
    private(set) var explains = false

    init() {}

    /// A builder whose statement is explained (`plan`) rather than run for its reply: it opens with
    /// `EXPLAIN (FORMAT …, options)`, and ``openReply()`` and ``appendBoundedReply(maximumBytes:countsInserts:)``
    /// leave out the reply's bounding, so the plan's top node is the body's aggregate, as PostgREST's.
    init(explaining plan: PlanOutput?) {
        guard let plan else { return }
        explains = true
        append(plan.format == .json ? "EXPLAIN (FORMAT JSON" : "EXPLAIN (FORMAT TEXT")
        for option in plan.options {
            switch option {
            case .analyze: append(", ANALYZE")
            case .verbose: append(", VERBOSE")
            case .settings: append(", SETTINGS")
            case .buffers: append(", BUFFERS")
            case .wal: append(", WAL")
            }
        }
        append(") ")
    }

    /// Fixed SQL: keywords, operators, punctuation. A `StaticString`, so it is source text.
    mutating func append(_ sql: StaticString) {
        text += sql.description
    }

    /// A name from the schema cache (or an alias the planner made), double-quoted.
    mutating func append(identifier name: String) {
        text += Self.quoted(name)
    }

    /// `"alias"."column"`.
    mutating func append(column name: String, of alias: String) {
        text += Self.quoted(alias) + "." + Self.quoted(name)
    }

    /// `"schema"."name"`: a table or function of the exposed schema.
    mutating func append(qualifiedName name: String, in schema: String) {
        append(column: name, of: schema)
    }

    /// A select-list position (`GROUP BY 1, 3`): a number the builder counted, never request text.
    mutating func append(ordinal: Int) {
        text += String(ordinal)
    }

    /// A value as the next `$n` parameter (text format, typed by Postgres from its context).
    mutating func bind(_ value: String?) {
        binds.append(value)
        text += "$\(binds.count)"
    }

    /// `items`, each written by `element`, with `separator` between them.
    mutating func append<Item>(_ items: some Sequence<Item>, separator: StaticString, _ element: (inout SQLBuilder, Item) -> Void) {
        for (index, item) in items.enumerated() {
            if index > 0 { append(separator) }
            element(&self, item)
        }
    }

    /// ` LIMIT $n OFFSET $m` for a window (nothing for all rows).
    mutating func append(range: RowRange) {
        if let limit = range.limit {
            append(" LIMIT ")
            bind(String(limit))
        }
        if range.offset > 0 {
            append(" OFFSET ")
            bind(String(range.offset))
        }
    }

    /// Another statement's text and parameters, renumbered.
    mutating func append(_ other: SQLBuilder) {
        let combined: PostgresQuery = "\(query)\(other.query)"
        text = combined.sql
        binds = combined.binds
    }

    /// The finished statement.
    var query: PostgresQuery { PostgresQuery(unsafeSQL: text, binds: binds) }

    /// `name` as a double-quoted identifier (`"` doubled): the one quoting rule, as PostgREST's `pgFmtIdent`.
    static func quoted(_ name: String) -> String {
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        for byte in name.utf8 {
            bytes.append(byte)
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A schema-cache entry with a name and a type as `format_type` prints it: a column or a
/// function parameter.
protocol CatalogTyped {
    var name: String { get }
    var type: String { get }
}

extension ColumnInfo: CatalogTyped {}
extension FunctionInfo.Parameter: CatalogTyped {}

extension SQLBuilder {
    /// `"name" type, …`: a record's column definitions (`json_to_record(…) AS x(…)`).
    mutating func append(columnDefinitions fields: [some CatalogTyped]) {
        append(fields, separator: ", ") { sql, field in
            sql.append(identifier: field.name)
            sql.append(" ")
            sql.append(catalogText: field.type)
        }
    }

    /// The column's default expression as `pg_get_expr` prints it, or `NULL` when it has none.
    mutating func append(defaultOf column: ColumnInfo) {
        guard let expression = column.defaultExpression else { return append("NULL") }
        append(catalogText: expression)
    }

    /// Text Postgres's catalog printed: a type or a default expression. Never request text;
    /// the only raw splice, and private so only the two methods above reach it.
    private mutating func append(catalogText: String) {
        text += catalogText
    }
}
