/// What PostgREST reads of a JSON body before any SQL: that it is JSON, whether it is an object,
/// an array or a scalar, and the keys of the object or of each object in the array.
///
/// ```swift
/// JSONBodyShape(#"[{"a":1,"b":[2]},{"b":3,"a":4}]"#)   // .array([["a", "b"], ["a", "b"]])
/// JSONBodyShape("{")                                   // nil: not JSON
/// ```
/// One pass over the bytes that builds no values and does not recurse, so a body nested any
/// depth or holding any number (`1e400` is JSON, and Postgres's `numeric` takes it) is read as
/// Postgres will read it. Foundation's parser refused both (PGRST102), and built every value
/// of the body only for its keys to be read.
enum JSONBodyShape: Equatable {
    /// An object and its keys.
    case object(Set<String>)
    /// An array: each element's keys when it is an object, nil when it is not.
    case array([Set<String>?])
    /// A string, number, `true`, `false` or `null`.
    case scalar

    /// The shape of `text`, or nil when it is not one JSON value (surrounding whitespace allowed).
    init?(_ text: String) {
        var text = text
        guard let shape = text.withUTF8({ bytes in
            var reader = Reader(bytes: bytes)
            return reader.read()
        }) else { return nil }
        self = shape
    }

    /// The single pass: a stack of open containers and what may come next.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        /// Open containers, outermost first: `true` for an object.
        var stack: [Bool] = []
        /// What the top-level value is, once it began: `{`, `[` or anything else.
        var topLevel: UInt8?
        /// The top-level object's keys.
        var keys: Set<String> = []
        /// The top-level array's elements' keys (nil for an element that is no object).
        var elements: [Set<String>?] = []

        enum Expecting { case value, valueOrArrayEnd, key, keyOrObjectEnd, colon, commaOrEnd, end }

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func read() -> JSONBodyShape? {
            var expecting = Expecting.value
            while true {
                skipWhitespace()
                switch expecting {
                case .end:
                    guard index == bytes.count else { return nil }
                    switch topLevel {
                    case UInt8(ascii: "{"): return .object(keys)
                    case UInt8(ascii: "["): return .array(elements)
                    default: return .scalar
                    }
                case .value, .valueOrArrayEnd:
                    guard let byte = next() else { return nil }
                    if expecting == .valueOrArrayEnd, byte == UInt8(ascii: "]") {
                        stack.removeLast()
                        expecting = afterValue
                        continue
                    }
                    guard let next = startValue(byte) else { return nil }
                    expecting = next
                case .key, .keyOrObjectEnd:
                    guard let byte = next() else { return nil }
                    if expecting == .keyOrObjectEnd, byte == UInt8(ascii: "}") {
                        stack.removeLast()
                        expecting = afterValue
                        continue
                    }
                    guard byte == UInt8(ascii: "\""), let key = readString(keeping: isRecordingKeys) else { return nil }
                    if let key { record(key) }
                    expecting = .colon
                case .colon:
                    guard next() == UInt8(ascii: ":") else { return nil }
                    expecting = .value
                case .commaOrEnd:
                    let inObject = stack.last == true
                    switch next() {
                    case UInt8(ascii: ","): expecting = inObject ? .key : .value
                    case UInt8(ascii: "}") where inObject, UInt8(ascii: "]") where !inObject:
                        stack.removeLast()
                        expecting = afterValue
                    default: return nil
                    }
                }
            }
        }

        /// What may follow a complete value.
        var afterValue: Expecting { stack.isEmpty ? .end : .commaOrEnd }

        /// Keys are kept for the top-level object, or for an object directly in the top-level array.
        var isRecordingKeys: Bool { stack.count == 1 ? stack[0] : stack.count == 2 && !stack[0] && stack[1] }

        /// Reads the value `byte` begins (all of it for a scalar) and says what comes next.
        mutating func startValue(_ byte: UInt8) -> Expecting? {
            if stack.isEmpty {
                topLevel = byte
            } else if stack.count == 1, !stack[0] {
                elements.append(byte == UInt8(ascii: "{") ? [] : nil)
            }
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(true)
                return .keyOrObjectEnd
            case UInt8(ascii: "["):
                stack.append(false)
                return .valueOrArrayEnd
            case UInt8(ascii: "\""):
                guard case .some = readString(keeping: false) else { return nil }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                index -= 1
                guard readNumber() else { return nil }
            case UInt8(ascii: "t"): guard readLiteral("rue") else { return nil }
            case UInt8(ascii: "f"): guard readLiteral("alse") else { return nil }
            case UInt8(ascii: "n"): guard readLiteral("ull") else { return nil }
            default: return nil
            }
            return afterValue
        }

        mutating func record(_ key: String) {
            if stack.count == 1 {
                keys.insert(key)
            } else {
                elements[elements.count - 1]?.insert(key)
            }
        }

        mutating func next() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func readLiteral(_ rest: StaticString) -> Bool {
            let expected = UnsafeBufferPointer(start: rest.utf8Start, count: rest.utf8CodeUnitCount)
            guard bytes.count - index >= expected.count, bytes[index..<index + expected.count].elementsEqual(expected) else { return false }
            index += expected.count
            return true
        }

        /// `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`, as text: any size.
        mutating func readNumber() -> Bool {
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() > 0 else { return false }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return false }
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return false }
            }
            return true
        }

        mutating func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }

        /// Reads a string whose opening quote was read: `.some(nil)` when valid and not kept,
        /// `.some(text)` when kept (escapes decoded), nil when it is not a JSON string.
        mutating func readString(keeping: Bool) -> String?? {
            var kept: [UInt8] = []
            var pendingHighSurrogate: UInt16?
            while let byte = next() {
                switch byte {
                case UInt8(ascii: "\""):
                    if pendingHighSurrogate != nil { kept += [0xEF, 0xBF, 0xBD] }
                    return .some(keeping ? String(decoding: kept, as: UTF8.self) : nil)
                case UInt8(ascii: "\\"):
                    guard let escape = next() else { return nil }
                    if escape == UInt8(ascii: "u") {
                        guard let unit = hex4() else { return nil }
                        guard keeping else { continue }
                        if let high = pendingHighSurrogate, (0xDC00...0xDFFF).contains(unit) {
                            let scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
                            kept += Array(String(Character(Unicode.Scalar(scalar)!)).utf8)
                            pendingHighSurrogate = nil
                            continue
                        }
                        if pendingHighSurrogate != nil { kept += [0xEF, 0xBF, 0xBD] }
                        pendingHighSurrogate = nil
                        if (0xD800...0xDBFF).contains(unit) {
                            pendingHighSurrogate = unit
                        } else if let scalar = Unicode.Scalar(unit) {
                            kept += Array(String(Character(scalar)).utf8)
                        } else {
                            kept += [0xEF, 0xBF, 0xBD]
                        }
                        continue
                    }
                    let decoded: UInt8
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded = escape
                    case UInt8(ascii: "b"): decoded = 0x08
                    case UInt8(ascii: "f"): decoded = 0x0C
                    case UInt8(ascii: "n"): decoded = 0x0A
                    case UInt8(ascii: "r"): decoded = 0x0D
                    case UInt8(ascii: "t"): decoded = 0x09
                    default: return nil
                    }
                    if keeping {
                        if pendingHighSurrogate != nil { kept += [0xEF, 0xBF, 0xBD] }
                        pendingHighSurrogate = nil
                        kept.append(decoded)
                    }
                case 0..<0x20:
                    return nil
                default:
                    if keeping {
                        if pendingHighSurrogate != nil { kept += [0xEF, 0xBF, 0xBD] }
                        pendingHighSurrogate = nil
                        kept.append(byte)
                    }
                }
            }
            return nil
        }

        mutating func hex4() -> UInt16? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt16 = 0
            for _ in 0..<4 {
                guard let digit = HexBytes.digit(bytes[index]) else { return nil }
                value = value << 4 | UInt16(digit)
                index += 1
            }
            return value
        }
    }
}
