/// Where bytes that should be UTF-8 text are not: what `String(decoding:as:)` would silently
/// turn into U+FFFD. A request's text is refused instead, as Postgres refuses such bytes (22021).
enum UTF8Validation {
    /// The first ill-formed sequence in `bytes` (one to three bytes), or nil when all is UTF-8.
    static func firstInvalidSequence(_ bytes: some Collection<UInt8>) -> [UInt8]? {
        // ASCII, the usual case, needs no parser.
        guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = bytes.startIndex
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar):
                position = bytes.index(position, offsetBy: scalar.count)
            case .emptyInput:
                return nil
            case .error(let length):
                return Array(bytes[position...].prefix(length))
            }
        }
    }

    /// Postgres's words for such bytes: `0xff 0xfe`.
    static func describe(_ sequence: [UInt8]) -> String {
        sequence.map { "0x" + String($0, radix: 16).leftPadded(to: 2) }.joined(separator: " ")
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
