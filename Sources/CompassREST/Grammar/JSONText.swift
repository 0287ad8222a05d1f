/// Minimal JSON string quoting for bodies assembled as text (error bodies, header values).
enum JSONText {
    /// `text` as a JSON string literal, escaped per RFC 8259.
    static func quoted(_ text: String) -> String {
        var result = ""
        appendQuoted(text, to: &result)
        return result
    }

    /// Appends `text` as a JSON string literal. Byte by byte: every escape is ASCII, and the
    /// bytes of a multi-byte UTF-8 sequence (0x80 and up) are copied as they are.
    static func appendQuoted(_ text: String, to result: inout String) {
        // Over the contiguous UTF-8 when there is one, rather than through the view index by index.
        let escapes = { (byte: UInt8) in byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") }
        let needsEscape = text.utf8.withContiguousStorageIfAvailable { $0.contains(where: escapes) } ?? text.utf8.contains(where: escapes)
        guard needsEscape else {
            result += "\""
            result += text
            result += "\""
            return
        }
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(text.utf8.count + 8)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        result += String(decoding: bytes, as: UTF8.self)
    }

    /// Reverses ``quoted(_:)`` for the escapes it writes (used to read `details` back in tests and logs).
    static func unquoted(_ literal: String) -> String {
        var characters = Array(literal.dropFirst().dropLast())[...]
        var result = ""
        while let character = characters.popFirst() {
            guard character == "\\", let next = characters.popFirst() else {
                result.append(character)
                continue
            }
            switch next {
            case "n": result.append("\n")
            case "r": result.append("\r")
            case "t": result.append("\t")
            case "u":
                let hex = String(characters.prefix(4))
                characters = characters.dropFirst(4)
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) { result.unicodeScalars.append(scalar) }
            default: result.append(next)
            }
        }
        return result
    }
}
