/// Why a text is not the JSON we expected; says where, never repeats the input.
public struct RealtimeJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// Byte offset of the problem.
    public var offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension RealtimeJSON {
    /// Parses one JSON document (whitespace around it allowed, nothing else).
    public init(parsing text: String) throws(RealtimeJSONError) {
        var parser = RealtimeJSONParser(bytes: Array(text.utf8))
        self = try parser.parseDocument()
    }

    /// The members of a JSON object, each with its value's exact JSON text, in document order.
    ///
    /// Rows from `to_jsonb` are read this way so values (large numbers, nested JSON) are
    /// re-emitted byte for byte.
    public static func objectMembers(of text: String) throws(RealtimeJSONError) -> [RealtimeJSONMember] {
        var parser = RealtimeJSONParser(bytes: Array(text.utf8))
        return try parser.parseTopLevelMembers()
    }
}

/// One member of a JSON object: its key, its value, and the value's JSON text as written.
public struct RealtimeJSONMember: Sendable, Hashable {
    /// The key.
    public var name: String
    /// The parsed value.
    public var value: RealtimeJSON
    /// The value's JSON text, exactly as it appeared.
    public var rawText: String
}

/// A recursive-descent JSON reader over UTF-8 bytes, with a nesting limit.
struct RealtimeJSONParser {
    let bytes: [UInt8]
    var index = 0
    var depth = 0
    static let maximumDepth = 128

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(RealtimeJSONError) -> RealtimeJSON {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw failure("trailing characters") }
        return value
    }

    mutating func parseTopLevelMembers() throws(RealtimeJSONError) -> [RealtimeJSONMember] {
        skipWhitespace()
        try expect(UInt8(ascii: "{"))
        var members: [RealtimeJSONMember] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipWhitespace()
                let name = try parseString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let start = index
                let value: RealtimeJSON
                do {
                    value = try parseValue()
                } catch where error.reason == Self.tooDeep {
                    // A column nested past the limit (a jsonb document) is still the row's: its
                    // text is passed on as written; filters never test an object or array column.
                    index = start
                    value = try skipNestedValue()
                }
                let raw = String(decoding: bytes[start..<index], as: UTF8.self)
                members.append(RealtimeJSONMember(name: name, value: value, rawText: raw))
                skipWhitespace()
                if try commaOrClose(UInt8(ascii: "}")) { break }
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw failure("trailing characters") }
        return members
    }

    static let tooDeep = "nested too deeply"

    /// Steps over the object or array at `index` without recursing (any depth), checking only
    /// that its brackets and strings close; the value it stands for is an empty one of its kind.
    private mutating func skipNestedValue() throws(RealtimeJSONError) -> RealtimeJSON {
        let opening = peek()
        guard opening == UInt8(ascii: "{") || opening == UInt8(ascii: "[") else { throw failure("unexpected character") }
        var open: [UInt8] = []
        repeat {
            guard let byte = peek() else { throw failure("unexpected end") }
            switch byte {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append(byte)
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard let last = open.popLast(), last == (byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")) else {
                    throw failure("unbalanced brackets")
                }
                index += 1
            case UInt8(ascii: "\""):
                _ = try parseString()
            default:
                index += 1
            }
        } while !open.isEmpty
        return opening == UInt8(ascii: "{") ? .object([:]) : .array([])
    }

    private func failure(_ reason: String) -> RealtimeJSONError {
        RealtimeJSONError(reason: reason, offset: index)
    }

    private func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(RealtimeJSONError) {
        guard peek() == byte else { throw failure("expected '\(Character(UnicodeScalar(byte)))'") }
        index += 1
    }

    /// After a member or element: true at the closing bracket, false after a comma.
    private mutating func commaOrClose(_ close: UInt8) throws(RealtimeJSONError) -> Bool {
        switch peek() {
        case UInt8(ascii: ","):
            index += 1
            return false
        case close:
            index += 1
            return true
        default:
            throw failure("expected ',' or '\(Character(UnicodeScalar(close)))'")
        }
    }

    private mutating func parseValue() throws(RealtimeJSONError) -> RealtimeJSON {
        guard let byte = peek() else { throw failure("unexpected end") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try parseKeyword("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try parseKeyword("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try parseKeyword("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw failure("unexpected character")
        }
    }

    private mutating func parseKeyword(_ word: String) throws(RealtimeJSONError) {
        let expected = Array(word.utf8)
        guard index + expected.count <= bytes.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else {
            throw failure("unknown literal")
        }
        index += expected.count
    }

    private mutating func parseObject() throws(RealtimeJSONError) -> RealtimeJSON {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw failure(Self.tooDeep) }
        index += 1
        var fields: [String: RealtimeJSON] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            let key = try parseString()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            fields[key] = try parseValue()
            skipWhitespace()
            if try commaOrClose(UInt8(ascii: "}")) { return .object(fields) }
        }
    }

    private mutating func parseArray() throws(RealtimeJSONError) -> RealtimeJSON {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else { throw failure(Self.tooDeep) }
        index += 1
        var elements: [RealtimeJSON] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            if try commaOrClose(UInt8(ascii: "]")) { return .array(elements) }
        }
    }

    private mutating func parseNumber() throws(RealtimeJSONError) -> String {
        let start = index
        func digits(_ parser: inout RealtimeJSONParser) -> Int {
            let from = parser.index
            while let byte = parser.peek(), byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { parser.index += 1 }
            return parser.index - from
        }
        if peek() == UInt8(ascii: "-") { index += 1 }
        if peek() == UInt8(ascii: "0") {
            index += 1
        } else if digits(&self) == 0 {
            throw failure("malformed number")
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw failure("malformed number") }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw failure("malformed number") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func parseString() throws(RealtimeJSONError) -> String {
        try expect(UInt8(ascii: "\""))
        var scalars: [UInt8] = []
        var plainStart = index
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scalars += bytes[plainStart..<index]
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            }
            if byte < 0x20 { throw failure("control character in string") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            scalars += bytes[plainStart..<index]
            index += 1
            guard let escape = peek() else { throw failure("unterminated escape") }
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): scalars.append(UInt8(ascii: "\\"))
            case UInt8(ascii: "/"): scalars.append(UInt8(ascii: "/"))
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                var code = try parseHex4()
                if (0xD800...0xDBFF).contains(code) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw failure("lone surrogate") }
                    index += 2
                    let low = try parseHex4()
                    guard (0xDC00...0xDFFF).contains(low) else { throw failure("lone surrogate") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00...0xDFFF).contains(code) {
                    throw failure("lone surrogate")
                }
                guard let scalar = Unicode.Scalar(code) else { throw failure("invalid code point") }
                scalars += Array(String(Character(scalar)).utf8)
            default:
                throw failure("unknown escape")
            }
            plainStart = index
        }
    }

    private mutating func parseHex4() throws(RealtimeJSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("bad hex digit")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
