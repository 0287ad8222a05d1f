/// A JSON value that keeps numbers exactly as written, so row values pass through unrounded.
///
/// ```swift
/// let value = try RealtimeJSON(parsing: #"{"ref":"1","payload":{}}"#)
/// value["ref"]?.stringValue   // "1"
/// ```
public enum RealtimeJSON: Sendable, Hashable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON text (`12`, `-0.5`, `1e3`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([RealtimeJSON])
    /// An object; serialised with sorted keys.
    case object([String: RealtimeJSON])

    /// The member named `key` of an object, nil otherwise.
    public subscript(key: String) -> RealtimeJSON? {
        guard case .object(let fields) = self else { return nil }
        return fields[key]
    }

    /// The string, when this is one.
    public var stringValue: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    /// The fields, when this is an object.
    public var objectValue: [String: RealtimeJSON]? {
        guard case .object(let fields) = self else { return nil }
        return fields
    }

    /// The elements, when this is an array.
    public var arrayValue: [RealtimeJSON]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// True for JSON `null`.
    public var isNull: Bool { self == .null }

    /// Compact JSON text (object keys sorted).
    public var jsonText: String {
        var output = ""
        write(to: &output)
        return output
    }

    /// Appends the compact JSON text to `output`.
    public func write(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let value): RealtimeJSON.writeQuoted(value, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(to: &output)
            }
            output += "]"
        case .object(let fields):
            output += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                RealtimeJSON.writeQuoted(key, to: &output)
                output += ":"
                fields[key]!.write(to: &output)
            }
            output += "}"
        }
    }

    /// A JSON string literal for `text`, quoted and escaped.
    public static func quoted(_ text: String) -> String {
        var output = ""
        writeQuoted(text, to: &output)
        return output
    }

    /// Appends `text` as a quoted, escaped JSON string.
    public static func writeQuoted(_ text: String, to output: inout String) {
        output += "\""
        var plainStart = text.utf8.startIndex
        var index = plainStart
        let utf8 = text.utf8
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 {
                output += text[plainStart..<index]
                switch byte {
                case UInt8(ascii: "\""): output += "\\\""
                case UInt8(ascii: "\\"): output += "\\\\"
                case 0x0A: output += "\\n"
                case 0x0D: output += "\\r"
                case 0x09: output += "\\t"
                case 0x08: output += "\\b"
                case 0x0C: output += "\\f"
                default:
                    let hex = String(byte, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                }
                plainStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        output += text[plainStart..<utf8.endIndex]
        output += "\""
    }
}

extension RealtimeJSON: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(arrayLiteral elements: RealtimeJSON...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, RealtimeJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
