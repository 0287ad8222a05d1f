/// Minimal JSON string quoting for bodies assembled as text (error bodies, header values).
enum JSONText {
    /// `text` as a JSON string literal, escaped per RFC 8259.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
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
