/// Hexadecimal text (`pg_catalog.encode(…, 'hex')`, `%2F` escapes) back to bytes.
enum HexBytes {
    /// The bytes `text` spells two hex digits at a time; a stray character ends the decoding.
    static func decode(_ text: String) -> [UInt8] {
        decode(text.utf8)
    }

    /// ``decode(_:)`` of the text's UTF-8 bytes.
    static func decode(_ text: some Collection<UInt8>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 2)
        var iterator = text.makeIterator()
        while let high = iterator.next().flatMap(digit), let low = iterator.next().flatMap(digit) {
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    /// The value of one hex digit, either case.
    static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
