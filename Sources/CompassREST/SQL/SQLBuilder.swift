import Postgres

/// Accumulates one statement: trusted SQL text, catalog-checked identifiers (quoted here)
/// and values, which only ever become `$n` parameters.
///
/// ```swift
/// var sql = SQLBuilder()
/// sql.append("SELECT * FROM "); sql.append(identifier: table.name); sql.append(" WHERE id = "); sql.bind(id)
/// ```
struct SQLBuilder {
    private(set) var text = ""
    private(set) var binds: [String?] = []

    /// Fixed SQL written in this module (keywords, operators, catalog type names).
    mutating func append(_ trusted: String) {
        text += trusted
    }

    /// A name that came from the schema cache, double-quoted.
    mutating func append(identifier name: String) {
        text += Self.quoted(name)
    }

    /// `"alias"."column"`.
    mutating func append(column name: String, of alias: String) {
        text += Self.quoted(alias) + "." + Self.quoted(name)
    }

    /// A value as the next `$n` parameter (text format, typed by Postgres from its context).
    mutating func bind(_ value: String?) {
        binds.append(value)
        text += "$\(binds.count)"
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

    /// `name` as a double-quoted identifier (`"` doubled).
    static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
