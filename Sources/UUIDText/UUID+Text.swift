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
        guard bytes.count == 36, bytes[8] == CanonicalUUID.dash, bytes[13] == CanonicalUUID.dash,
            bytes[18] == CanonicalUUID.dash, bytes[23] == CanonicalUUID.dash
        else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let valid = withUnsafeMutableBytes(of: &value) { output -> Bool in
            for index in 0..<16 {
                let position = CanonicalUUID.textPosition(ofByte: index)
                guard let high = CanonicalUUID.nibble(bytes[position]), let low = CanonicalUUID.nibble(bytes[position + 1]) else {
                    return false
                }
                output[index] = high << 4 | low
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
                CanonicalUUID.writeLowercased(value, into: UnsafeMutableBufferPointer(rebasing: output[...]))
                return 36
            }
        }
    }

    /// `prefix` followed by ``lowercasedText``, built as one string (`"doc-" + id` builds two).
    public func lowercasedText(prefixedBy prefix: String) -> String {
        var prefix = prefix
        return prefix.withUTF8 { head in
            withUnsafeBytes(of: uuid) { value in
                String(unsafeUninitializedCapacity: head.count + 36) { output in
                    _ = UnsafeMutableRawBufferPointer(output).copyMemory(from: UnsafeRawBufferPointer(head))
                    CanonicalUUID.writeLowercased(value, into: UnsafeMutableBufferPointer(rebasing: output[head.count...]))
                    return head.count + 36
                }
            }
        }
    }
}

/// The byte-level pieces of the canonical form.
private enum CanonicalUUID {
    static let dash = UInt8(ascii: "-")

    /// Where byte `index` (0–15) of the UUID starts in its text: two digits a byte, and a dash
    /// before bytes 4, 6, 8 and 10 (text positions 8, 13, 18 and 23). Arithmetic, not a table
    /// lookup, so the loops above stay free of global loads.
    @inline(__always)
    static func textPosition(ofByte index: Int) -> Int {
        2 &* index &+ (index >= 4 ? 1 : 0) &+ (index >= 6 ? 1 : 0) &+ (index >= 8 ? 1 : 0) &+ (index >= 10 ? 1 : 0)
    }

    /// Writes the 36 bytes of the lower-case text of `value` (16 bytes) into `output`.
    @inline(__always)
    static func writeLowercased(_ value: UnsafeRawBufferPointer, into output: UnsafeMutableBufferPointer<UInt8>) {
        (output[8], output[13], output[18], output[23]) = (dash, dash, dash, dash)
        for index in 0..<16 {
            let position = textPosition(ofByte: index)
            output[position] = hexDigit(value[index] >> 4)
            output[position + 1] = hexDigit(value[index] & 0x0F)
        }
    }

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
