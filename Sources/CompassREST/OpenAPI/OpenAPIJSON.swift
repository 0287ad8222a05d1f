/// A JSON value whose objects keep their keys in the order they were built, so the document reads
/// in a stable, logical order (parameter lists, table columns in table order).
///
/// ```swift
/// let json: OpenAPIJSON = .object([("type", "string"), ("format", "text")])
/// json.text   // {"type":"string","format":"text"}
/// ```
indirect enum OpenAPIJSON: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    case string(String)
    case bool(Bool)
    /// JSON text already known to be valid (a number, a column default that parses).
    case raw(String)
    case array([OpenAPIJSON])
    case object([Member])

    /// One key and its value.
    struct Member: Sendable, Hashable {
        var key: String
        var value: OpenAPIJSON
    }

    init(stringLiteral value: String) { self = .string(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: OpenAPIJSON...) { self = .array(elements) }

    /// An object of the members whose value is not nil, in order.
    static func object(_ members: [(String, OpenAPIJSON?)]) -> OpenAPIJSON {
        .object(members.compactMap { key, value in value.map { Member(key: key, value: $0) } })
    }

    /// `{"$ref": "#/…"}`.
    static func reference(_ path: String) -> OpenAPIJSON {
        .object([("$ref", .string(path))])
    }

    /// The value as compact JSON.
    var text: String {
        var result = ""
        append(to: &result)
        return result
    }

    private func append(to result: inout String) {
        switch self {
        case .string(let text): JSONText.appendQuoted(text, to: &result)
        case .bool(let value): result += value ? "true" : "false"
        case .raw(let text): result += text
        case .array(let items):
            result += "["
            for (index, item) in items.enumerated() {
                if index > 0 { result += "," }
                item.append(to: &result)
            }
            result += "]"
        case .object(let members):
            result += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { result += "," }
                JSONText.appendQuoted(member.key, to: &result)
                result += ":"
                member.value.append(to: &result)
            }
            result += "}"
        }
    }
}
