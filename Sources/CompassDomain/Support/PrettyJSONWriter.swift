/// Writes JSON byte for byte as ``CompassJSON``'s encoder does, for the responses served most.
///
/// `JSONEncoder` boxes every value through `Codable` containers and sorts keys per object; for
/// the feed page that was a fifth of the worker's CPU per request. A type that writes itself
/// here (``CompassJSONWritable``) gives its keys already sorted; tests hold its output equal to
/// `JSONEncoder`'s with the shared settings: pretty-printed, two-space indent, `"key" : value`,
/// `/` not escaped, an empty container as `[`, a blank line, `]`.
///
/// ```swift
/// var json = PrettyJSONWriter()
/// json.object { json in
///     json.key("page"); json.int(1)
/// }
/// json.bytes   // {\n  "page" : 1\n}
/// ```
public struct PrettyJSONWriter {
    /// The document so far (UTF-8).
    public private(set) var bytes: [UInt8] = []
    /// How many members or elements each open container holds so far.
    private var counts: [Int] = []

    /// An empty document.
    public init() {
        bytes.reserveCapacity(4096)
    }

    /// Writes an object; `body` writes its members (``key(_:)`` then a value), keys in sorted order.
    public mutating func object(_ body: (inout PrettyJSONWriter) -> Void) {
        container(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), body)
    }

    /// Writes an array; `body` writes its elements, each after ``element()``.
    public mutating func array(_ body: (inout PrettyJSONWriter) -> Void) {
        container(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), body)
    }

    /// Starts a member of the current object: its key, then the value the caller writes next.
    public mutating func key(_ key: String) {
        startItem()
        string(key)
        // Byte by byte: an array literal here was built anew for every key.
        bytes.append(UInt8(ascii: " "))
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
    }

    /// Starts an element of the current array; the caller writes the value next.
    public mutating func element() {
        startItem()
    }

    /// A string, escaped as the encoder escapes (quote, backslash, control characters).
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most text needs no escape: checked over its contiguous UTF-8 (not through the view's
        // index by index) and copied in one go rather than byte by byte.
        let copied = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A string, or `null`.
    public mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    /// A whole number.
    public mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// `true` or `false`.
    public mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// `null`.
    public mutating func null() {
        bytes.append(contentsOf: "null".utf8)
    }

    private mutating func container(open: UInt8, close: UInt8, _ body: (inout PrettyJSONWriter) -> Void) {
        bytes.append(open)
        counts.append(0)
        body(&self)
        let items = counts.removeLast()
        if items == 0 { bytes.append(UInt8(ascii: "\n")) }
        newline()
        bytes.append(close)
    }

    private mutating func startItem() {
        if counts[counts.count - 1] > 0 { bytes.append(UInt8(ascii: ",")) }
        counts[counts.count - 1] += 1
        newline()
    }

    /// The newline that ends the document, as the encoder's callers add it.
    public mutating func endDocument() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// A line break and two spaces per open container.
    private mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<(2 * counts.count) { bytes.append(UInt8(ascii: " ")) }
    }
}

/// A response that writes its own JSON with ``PrettyJSONWriter``; ``CompassJSON`` uses it.
public protocol CompassJSONWritable: Encodable {
    /// Writes `self` as `CompassJSON.encoder()` would encode it.
    func write(to json: inout PrettyJSONWriter)
}
