/// A raw query string split into decoded `(name, value)` pairs, in order, duplicates kept
/// (`created_at=gte.a&created_at=lte.b` is two filters). `+` decodes as a space, as PostgREST reads it.
enum QueryString {
    static func pairs(_ query: String?) -> [(name: String, value: String?)] {
        guard let query, !query.isEmpty else { return [] }
        let utf8 = query.utf8
        // In ASCII every character is a byte: split the bytes. Otherwise by character, where
        // `&` or `=` followed by a combining mark is not a separator.
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return query.split(separator: "&", omittingEmptySubsequences: true).map { part in
                guard let equals = part.firstIndex(of: "=") else { return (decode(part), nil) }
                return (decode(part[..<equals]), decode(part[part.index(after: equals)...]))
            }
        }
        return utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { part in
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return (decode(bytes: part), nil) }
            return (decode(bytes: part[..<equals]), decode(bytes: part[part.index(after: equals)...]))
        }
    }

    /// The first byte sequence a percent-escape makes that is not UTF-8 (`%FF`), if any: decoded
    /// text would silently hold U+FFFD instead. The query itself is text, so only escapes can.
    static func invalidUTF8(in query: String?) -> [UInt8]? {
        guard let query, query.utf8.contains(UInt8(ascii: "%")) else { return nil }
        for part in query.utf8.split(separator: UInt8(ascii: "&")) where part.contains(UInt8(ascii: "%")) {
            if let bad = UTF8Validation.firstInvalidSequence(decodedBytes(part)) { return bad }
        }
        return nil
    }

    /// Percent-decodes `text`, reading `+` as a space; malformed escapes are kept as written.
    static func decode(_ text: Substring) -> String {
        decode(bytes: text.utf8)
    }

    /// ``decode(_:)`` of UTF-8 bytes; text without `%` or `+` is returned as it is.
    static func decode(bytes text: some Collection<UInt8>) -> String {
        guard text.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(decoding: text, as: UTF8.self)
        }
        return String(decoding: decodedBytes(text), as: UTF8.self)
    }

    /// The bytes `text` stands for: escapes decoded, `+` as a space.
    private static func decodedBytes(_ text: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var iterator = Array(text)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                let high = HexBytes.digit(iterator[iterator.startIndex]), let low = HexBytes.digit(iterator[iterator.startIndex + 1])
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return bytes
    }
}
