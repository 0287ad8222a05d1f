import Foundation

/// The canonical text of a UUID, read and written byte by byte.
///
/// Foundation's `UUID(uuidString:)` and `uuidString` go through C `sscanf`/`sprintf` on
/// Linux, which showed up as a fifth of the feed's client time. These do the same work on
/// the bytes directly; PostgreSQL prints every `uuid` in this form.
///
/// ```swift
/// UUID(canonicalText: "7f1c…")?.lowercasedText   // "7f1c…", as PostgreSQL writes it
/// ```
extension UUID {
    /// Reads `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in either case from UTF-8 bytes; nil for anything else.
    public init?(canonicalText bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 36 else { return nil }
        for position in CanonicalUUID.dashPositions where bytes[position] != CanonicalUUID.dash { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &value) { output -> Bool in
            var position = 0
            for index in 0..<16 {
                if CanonicalUUID.dashPositions.contains(position) { position += 1 }
                guard let high = CanonicalUUID.nibble(bytes[position]), let low = CanonicalUUID.nibble(bytes[position + 1]) else {
                    return false
                }
                output[index] = high << 4 | low
                position += 2
            }
            return true
        }
        guard valid else { return nil }
        self.init(uuid: value)
    }

    /// Reads the canonical text (either case); nil for anything else, like `UUID(uuidString:)`.
    public init?(canonicalText text: String) {
        var text = text
        guard let value = text.withUTF8({ UUID(canonicalText: $0) }) else { return nil }
        self = value
    }

    /// The UUID in lower case, the way PostgreSQL prints it (`uuidString` is upper case).
    public var lowercasedText: String {
        withUnsafeBytes(of: uuid) { value in
            String(unsafeUninitializedCapacity: 36) { output in
                var position = 0
                for index in 0..<16 {
                    if CanonicalUUID.dashPositions.contains(position) {
                        output[position] = CanonicalUUID.dash
                        position += 1
                    }
                    output[position] = CanonicalUUID.hexDigit(value[index] >> 4)
                    output[position + 1] = CanonicalUUID.hexDigit(value[index] & 0x0F)
                    position += 2
                }
                return 36
            }
        }
    }
}

/// The byte-level pieces of the canonical form.
private enum CanonicalUUID {
    static let dash = UInt8(ascii: "-")
    static let dashPositions = [8, 13, 18, 23]

    @inline(__always)
    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte &- UInt8(ascii: "A") &+ 10
        default: return nil
        }
    }

    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") &+ nibble : UInt8(ascii: "a") &+ nibble &- 10
    }
}
