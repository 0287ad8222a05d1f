/// A `postgres_changes` row filter: `column=operator.value`.
///
/// ```swift
/// let filter = try RealtimeFilter(parsing: "status=in.(open,pending)")
/// filter?.column     // "status"
/// filter?.values     // ["open", "pending"]
/// ```
/// Supported operators: `eq`, `neq`, `lt`, `lte`, `gt`, `gte`, `in` (at most 100 items).
/// Newer PostgREST-style forms (`like`, `is`, `not.`, several conditions joined by
/// commas) are refused with a reason, never silently ignored.
public struct RealtimeFilter: Sendable, Hashable {
    /// The comparison.
    public enum Operator: String, Sendable, CaseIterable {
        case eq, neq, lt, lte, gt, gte
        case `in`
    }

    /// The column the filter reads.
    public var column: String
    /// The comparison.
    public var `operator`: Operator
    /// One value for the scalar operators, the list for `in`.
    public var values: [String]

    /// The most items an `in` list may hold.
    public static let maximumListCount = 100

    /// Makes a filter.
    public init(column: String, operator: Operator, values: [String]) {
        self.column = column
        self.operator = `operator`
        self.values = values
    }

    /// Parses filter text; empty or blank text is "no filter" (nil).
    public init?(parsing text: String) throws(RealtimeFilterError) {
        let trimmed = text.trimmingWhitespace
        if trimmed.isEmpty { return nil }
        guard let equals = trimmed.firstIndex(of: "=") else {
            throw RealtimeFilterError("filter '\(text)' is not column=operator.value")
        }
        let column = String(trimmed[..<equals]).trimmingWhitespace
        guard !column.isEmpty else { throw RealtimeFilterError("filter '\(text)' names no column") }
        let expression = trimmed[trimmed.index(after: equals)...]
        guard let dot = expression.firstIndex(of: ".") else {
            throw RealtimeFilterError("filter '\(text)' is not column=operator.value")
        }
        let operatorName = String(expression[..<dot])
        let operand = String(expression[expression.index(after: dot)...])
        guard let parsed = Operator(rawValue: operatorName) else {
            if ["like", "ilike", "match", "imatch", "is", "isdistinct", "not", "fts", "plfts", "phfts", "wfts", "cs", "cd", "ov"]
                .contains(operatorName)
            {
                throw RealtimeFilterError("filter operator '\(operatorName)' is not supported (use eq, neq, lt, lte, gt, gte or in)")
            }
            throw RealtimeFilterError("unknown filter operator '\(operatorName)'")
        }
        self.column = column
        self.operator = parsed
        if parsed == .in {
            self.values = try Self.parseList(operand, filter: text)
        } else {
            if Self.startsAnotherCondition(operand) {
                throw RealtimeFilterError("filter '\(text)' combines several conditions, which is not supported")
            }
            self.values = [try Self.unquote(operand, filter: text)]
        }
    }

    /// `(a, b, "c,d")` → `["a", "b", "c,d"]`, items trimmed.
    private static func parseList(_ operand: String, filter: String) throws(RealtimeFilterError) -> [String] {
        let trimmed = operand.trimmingWhitespace
        guard trimmed.hasPrefix("("), trimmed.hasSuffix(")"), trimmed.count >= 2 else {
            throw RealtimeFilterError("filter '\(filter)': an in list is written (a,b,c)")
        }
        let inner = trimmed.dropFirst().dropLast()
        var items: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        var wasQuoted = false
        for character in inner {
            if escaped {
                current.append(character)
                escaped = false
            } else if inQuotes && character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
                wasQuoted = true
            } else if character == "," && !inQuotes {
                items.append(wasQuoted ? current : current.trimmingWhitespace)
                current = ""
                wasQuoted = false
            } else {
                current.append(character)
            }
        }
        guard !inQuotes else { throw RealtimeFilterError("filter '\(filter)': unterminated quote") }
        items.append(wasQuoted ? current : current.trimmingWhitespace)
        if items == [""] { items = [] }
        guard items.count <= maximumListCount else {
            throw RealtimeFilterError("filter '\(filter)': an in list holds at most \(maximumListCount) items")
        }
        return items
    }

    /// A PostgREST double-quoted value with backslash escapes, or the text as is.
    private static func unquote(_ operand: String, filter: String) throws(RealtimeFilterError) -> String {
        guard operand.hasPrefix("\""), operand.count >= 2, operand.hasSuffix("\"") else { return operand }
        var result = ""
        var escaped = false
        for character in operand.dropFirst().dropLast() {
            if escaped {
                result.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    /// True when a comma introduces a second `column=op.value` condition.
    private static func startsAnotherCondition(_ operand: String) -> Bool {
        for part in operand.split(separator: ",").dropFirst() {
            let candidate = part.trimmingWhitespace
            guard let equals = candidate.firstIndex(of: "=") else { continue }
            let name = candidate[..<equals]
            let rest = candidate[candidate.index(after: equals)...]
            let isIdentifier = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            if isIdentifier, let dot = rest.firstIndex(of: "."), !rest[..<dot].isEmpty,
                rest[..<dot].allSatisfy({ $0.isLetter })
            {
                return true
            }
        }
        return false
    }
}

/// Why a filter was refused; the text is shown to the client in a `system` message.
public struct RealtimeFilterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A sentence naming the problem.
    public var message: String

    init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension StringProtocol {
    /// The text without leading and trailing ASCII whitespace (space, tab, line breaks, form
    /// feed), the only kind Postgres's readers skip: a no-break space or a space carrying a
    /// combining mark stays, so the value is refused or compared as Postgres would.
    var trimmingWhitespace: String {
        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || (0x09...0x0D).contains(byte)
        }
        let bytes = Substring(self).utf8
        // Most values have nothing to trim: no new string for them (every filtered row value passes here).
        if let first = bytes.first, let last = bytes.last, !isSpace(first), !isSpace(last) { return String(self) }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(Substring(bytes[start...last]))
    }
}
