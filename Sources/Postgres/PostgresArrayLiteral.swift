/// Reads and writes one-dimensional Postgres array literals such as `{a,"b c",NULL}`.
enum PostgresArrayLiteral {
    private static let elementTypes: [UInt32: PostgresDataType] = [
        1000: .bool, 1005: .int2, 1007: .int4, 1016: .int8, 1009: .text, 1015: .varchar,
        1021: .float4, 1022: .float8, 1115: .timestamp, 1185: .timestamptz, 1231: .numeric,
        2951: .uuid, 3807: .jsonb, 199: .json, 1182: .date,
    ]

    /// The element type of an array type, or nil when `type` is not a known array.
    static func elementType(of type: PostgresDataType) -> PostgresDataType? {
        elementTypes[type.oid]
    }

    /// Every element quoted, with `"` and `\` escaped; nil becomes NULL.
    static func format(_ items: [String?]) -> String {
        var result = "{"
        for (index, item) in items.enumerated() {
            if index > 0 { result += "," }
            guard let item else {
                result += "NULL"
                continue
            }
            result += "\""
            // Most elements (ids, names) hold neither: copied whole rather than character by character.
            if item.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                for character in item {
                    if character == "\"" || character == "\\" { result += "\\" }
                    result.append(character)
                }
            } else {
                result += item
            }
            result += "\""
        }
        return result + "}"
    }

    /// Parses a one-dimensional literal; nil when malformed or multi-dimensional.
    static func parse(_ text: String) -> [String?]? {
        var characters = Substring(text)
        if characters.first == "[" {  // explicit bounds such as [0:1]={…}
            guard let equals = characters.firstIndex(of: "=") else { return nil }
            characters = characters[characters.index(after: equals)...]
        }
        guard characters.first == "{", characters.last == "}" else { return nil }
        characters = characters.dropFirst().dropLast()
        var items: [String?] = []
        guard !characters.isEmpty else { return items }
        var current = ""
        var quoted = false
        var inQuotes = false
        var iterator = characters.makeIterator()
        while let character = iterator.next() {
            if inQuotes {
                if character == "\\" {
                    guard let escaped = iterator.next() else { return nil }
                    current.append(escaped)
                } else if character == "\"" {
                    inQuotes = false
                } else {
                    current.append(character)
                }
                continue
            }
            switch character {
            case "{": return nil
            case "\"":
                inQuotes = true
                quoted = true
            case ",":
                items.append(quoted || current != "NULL" ? current : nil)
                current = ""
                quoted = false
            default:
                current.append(character)
            }
        }
        guard !inQuotes else { return nil }
        items.append(quoted || current != "NULL" ? current : nil)
        return items
    }
}
