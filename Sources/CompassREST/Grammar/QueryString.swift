/// A raw query string split into decoded `(name, value)` pairs, in order, duplicates kept
/// (`created_at=gte.a&created_at=lte.b` is two filters). `+` decodes as a space, as PostgREST reads it.
enum QueryString {
    static func pairs(_ query: String?) -> [(name: String, value: String?)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { part in
            guard let equals = part.firstIndex(of: "=") else { return (decode(part), nil) }
            return (decode(part[..<equals]), decode(part[part.index(after: equals)...]))
        }
    }

    /// Percent-decodes `text`, reading `+` as a space; malformed escapes are kept as written.
    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
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
        return String(decoding: bytes, as: UTF8.self)
    }
}
