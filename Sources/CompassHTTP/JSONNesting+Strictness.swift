import Foundation

extension JSONNesting {
    /// What a lenient decoder would take that GoTrue's (Go's `encoding/json`) refuses or reads
    /// otherwise: a byte order mark, a comma before `}` or `]`, and a key given twice in one
    /// object (Go keeps the last, Foundation the first: `{"email":"a","email":"b"}` would sign in
    /// as one account where a proxy reading it like Go saw the other). Keys compare as Swift
    /// strings (canonically equivalent ones are one key to the decoder), and the body's own fields
    /// in any case, as Go matches them (`email` and `EMAIL`). Nil when none; malformed JSON is left
    /// to the decoder.
    static func strictnessProblem(in bytes: some Collection<UInt8>) -> String? {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return "the body starts with a byte order mark" }
        var open: [OpenContainer] = []
        var lastSignificant: UInt8 = 0
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "\""):
                let text = readString(&iterator)
                if let last = open.indices.last, open[last].isObject, open[last].expectsKey {
                    let key = decodedKey(text)
                    guard open[last].keys.insert(last == 0 ? key.lowercased() : key).inserted else {
                        return "the key '\(key.prefix(100))' is given twice"
                    }
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                open.append(OpenContainer(isObject: byte == UInt8(ascii: "{"), expectsKey: byte == UInt8(ascii: "{")))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if lastSignificant == UInt8(ascii: ",") { return "a comma before '\(Character(UnicodeScalar(byte)))'" }
                _ = open.popLast()
            case UInt8(ascii: ","):
                if let last = open.indices.last, open[last].isObject { open[last].expectsKey = true }
            case UInt8(ascii: ":"):
                if let last = open.indices.last { open[last].expectsKey = false }
            default:
                break
            }
            lastSignificant = byte
        }
        return nil
    }

    /// An array or object the scan is inside of.
    private struct OpenContainer {
        var isObject: Bool
        /// An object's next string is a key (after `{` or `,`).
        var expectsKey: Bool
        var keys: Set<String> = []
    }

    /// The bytes of a string up to its closing quote (the opening one already read), escapes as written.
    private static func readString(_ iterator: inout some IteratorProtocol<UInt8>) -> [UInt8] {
        var text: [UInt8] = []
        var escaped = false
        while let byte = iterator.next() {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                break
            }
            text.append(byte)
        }
        return text
    }

    /// A key as the decoder will read it: escapes (`\u0065`) resolved, so they cannot hide a repeat.
    private static func decodedKey(_ text: [UInt8]) -> String {
        guard text.contains(UInt8(ascii: "\\")),
            let decoded = try? JSONDecoder().decode(String.self, from: Data([UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")]))
        else { return String(decoding: text, as: UTF8.self) }
        return decoded
    }
}
