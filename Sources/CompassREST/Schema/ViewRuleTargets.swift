/// The output columns of a view as its select rule records them: Postgres stores the rule as
/// node text (`pg_rewrite.ev_action`), and each top-level target entry names the table column it
/// shows as it is (`resorigtbl`, `resorigcol`; zero when it computes a value).
///
/// ```swift
/// ViewRuleTargets.entries(of: "({QUERY … :targetList ({TARGETENTRY … :resname id … :resorigtbl 16400 :resorigcol 1 …}) …})")
/// // [Entry(name: "id", table: 16400, column: 1)]
/// ```
/// Only the top level counts: the rule also holds the target lists of subqueries (in `WHERE`,
/// in `FROM`, in a column's expression), whose names say nothing about the view's own columns.
enum ViewRuleTargets {
    struct Entry: Equatable {
        var name: String
        /// The table's oid, or 0 when the column is not a plain column of one table.
        var table: UInt32
        var column: Int
    }

    static func entries(of rule: String) -> [Entry] {
        var scanner = NodeTextScanner(Array(rule.utf8))
        // `(` the list of queries, `{QUERY` the first: its fields are at depth 2.
        guard scanner.skip(toField: ":targetList", atDepth: 2), scanner.nextToken() == "(" else { return [] }
        var entries: [Entry] = []
        var current: [String: String] = [:]
        let listDepth = scanner.depth - 1
        while let token = scanner.nextToken() {
            if scanner.depth < listDepth || (scanner.depth == listDepth && token == ")") { break }
            // Each `{TARGETENTRY` opens at the list's depth + 2; its own fields sit there, its
            // expression's deeper.
            if token == "}" && scanner.depth == listDepth + 1 {
                if let name = current[":resname"], let table = current[":resorigtbl"].flatMap(UInt32.init),
                    let column = current[":resorigcol"].flatMap(Int.init)
                {
                    entries.append(Entry(name: name, table: table, column: column))
                }
                current = [:]
            } else if token.hasPrefix(":") && scanner.depth == listDepth + 2, let value = scanner.nextValue() {
                current[token] = value
            }
        }
        return entries
    }
}

/// Tokens of Postgres's node text, with the nesting depth of `(`/`{` and backslash escapes undone
/// (`outToken` escapes spaces, brackets and backslashes in names).
private struct NodeTextScanner {
    private let bytes: [UInt8]
    private var index = 0
    /// The depth after the last token read.
    private(set) var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Moves past the first `field` token read at `depth`, before its value.
    mutating func skip(toField field: String, atDepth depth: Int) -> Bool {
        while let token = nextToken() {
            if token == field && self.depth == depth { return true }
        }
        return false
    }

    /// A field's value: the next token, unless it opens a node or a list (`nil`, left unread).
    mutating func nextValue() -> String? {
        skipSpaces()
        guard index < bytes.count, !"({)}".utf8.contains(bytes[index]) else { return nil }
        return nextToken()
    }

    /// The next token: a bracket, or a run of other bytes up to a space or a bracket.
    mutating func nextToken() -> String? {
        skipSpaces()
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: "{"):
            index += 1
            depth += 1
            return String(decoding: [byte], as: UTF8.self)
        case UInt8(ascii: ")"), UInt8(ascii: "}"):
            index += 1
            depth -= 1
            return String(decoding: [byte], as: UTF8.self)
        default:
            var token: [UInt8] = []
            while index < bytes.count, !Self.endsToken(bytes[index]) {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count { index += 1 }
                token.append(bytes[index])
                index += 1
            }
            return String(decoding: token, as: UTF8.self)
        }
    }

    private mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\n") { index += 1 }
    }

    private static func endsToken(_ byte: UInt8) -> Bool {
        "(){} \n".utf8.contains(byte)
    }
}
