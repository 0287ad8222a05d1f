/// A cursor over one query-parameter value, with PostgREST's error wording for what it
/// did not expect (`unexpected "x" expecting …`, `(line 1, column N)`).
struct GrammarScanner {
    /// What is being parsed, for messages: `select parameter`, `filter`, `order`, ….
    let subject: String
    let input: String
    let characters: [Character]
    var position = 0
    /// Added to reported columns: PostgREST parses `or=(…)` as `or(…)`, so its columns count the operator.
    var columnOffset = 0
    /// Whether every character is one ASCII byte (no `\r\n`, the one ASCII pair that is a single
    /// character): then character positions are byte offsets, and text is cut from the UTF-8
    /// without rebuilding it character by character.
    private let isOneBytePerCharacter: Bool

    init(_ input: String, subject: String) {
        self.input = input
        self.subject = subject
        self.characters = Array(input)
        self.isOneBytePerCharacter = characters.count == input.utf8.count
    }

    /// The text of the characters in `range`.
    func text(_ range: Range<Int>) -> String {
        guard isOneBytePerCharacter else { return String(characters[range]) }
        let utf8 = input.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        return String(Substring(utf8[start..<utf8.index(start, offsetBy: range.count)]))
    }

    var isAtEnd: Bool { position >= characters.count }
    var current: Character? { position < characters.count ? characters[position] : nil }

    func peek(_ offset: Int = 0) -> Character? {
        let index = position + offset
        return index < characters.count ? characters[index] : nil
    }

    /// Whether the text at the cursor starts with `literal` (case-sensitive).
    func looksAt(_ literal: String) -> Bool {
        var index = position
        for character in literal {
            guard index < characters.count, characters[index] == character else { return false }
            index += 1
        }
        return true
    }

    /// Consumes `literal` if it is next.
    mutating func consume(_ literal: String) -> Bool {
        guard looksAt(literal) else { return false }
        position += literal.count
        return true
    }

    /// Consumes `character` or fails expecting it.
    mutating func expect(_ character: Character, name: String? = nil) throws(RESTError) {
        guard current == character else { throw failure(expecting: [name ?? "\"\(character)\""]) }
        position += 1
    }

    /// Whether the character before the cursor is a space or a tab (``skipWhitespace()`` passed one).
    var followsWhitespace: Bool {
        position > 0 && position <= characters.count && (characters[position - 1] == " " || characters[position - 1] == "\t")
    }

    mutating func skipWhitespace() {
        while let character = current, character == " " || character == "\t" { position += 1 }
    }

    /// Characters up to (not including) any of `stops`, or to the end.
    mutating func take(until stops: Set<Character>) -> String {
        let start = position
        while let character = current, !stops.contains(character) { position += 1 }
        return text(start..<position)
    }

    /// Everything left.
    mutating func takeRest() -> String {
        defer { position = characters.count }
        return text(position..<characters.count)
    }

    /// The error for the character at the cursor (or the end of input).
    func failure(expecting expected: [String]) -> RESTError {
        failure(at: position, expecting: expected)
    }

    /// The error for the character at `index`; `quotingCharacter` words it as Parsec's `eof`
    /// does (`unexpected 't'`), a token as the others do (`unexpected "t"`).
    func failure(at index: Int, expecting expected: [String], quotingCharacter: Bool = false) -> RESTError {
        let quote = quotingCharacter ? "'" : "\""
        let unexpected = index < characters.count ? "unexpected \(quote)\(characters[index])\(quote)" : "unexpected end of input"
        var details = unexpected
        if !expected.isEmpty { details += " expecting " + Self.list(expected) }
        return .parse(subject, input: input, column: index + 1 + columnOffset, details: details)
    }

    /// `a`, `a or b`, `a, b or c`, as Parsec lists alternatives.
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " or " + items.last!
    }
}

extension GrammarScanner {
    static let fieldNameExpectation = "field name (* or [a..z0..9_$])"

    /// A column or relation name: `"quoted \"name\""` or identifier characters joined by
    /// dashes (`letters digits _ $ space`, trimmed), as PostgREST reads them.
    mutating func fieldName() throws(RESTError) -> String {
        if current == "\"" { return try quotedValue() }
        var parts: [String] = []
        while true {
            let start = position
            while let character = current, Self.isIdentifierCharacter(character) { position += 1 }
            guard position > start else {
                throw failure(expecting: parts.isEmpty ? [Self.fieldNameExpectation] : ["letter or digit"])
            }
            parts.append(text(start..<position).trimmingSpaces)
            guard current == "-", peek(1) != ">" else { break }
            position += 1
        }
        return parts.joined(separator: "-")
    }

    /// `"…"` with backslash escapes; the quotes are dropped.
    mutating func quotedValue() throws(RESTError) -> String {
        try expect("\"")
        var value = ""
        while let character = current, character != "\"" {
            position += 1
            if character == "\\" {
                guard let escaped = current else { break }
                value.append(escaped)
                position += 1
            } else {
                value.append(character)
            }
        }
        try expect("\"")
        return value
    }

    /// `->key`, `->>key`, `->0` steps after a column name.
    mutating func jsonPath() throws(RESTError) -> [JSONPathStep] {
        var steps: [JSONPathStep] = []
        while looksAt("->") {
            let asText: Bool
            if consume("->>") {
                asText = true
            } else {
                _ = consume("->")
                asText = false
            }
            let start = position
            // A key never starts with "-": after it only an index's digits may follow.
            if current == "-", !(peek(1).map { $0.isASCII && $0.isNumber } ?? false) {
                throw failure(at: position + 1, expecting: ["digit"])
            }
            var index = consume("-") ? "-" : ""
            while let character = current, character.isASCII, character.isNumber {
                index.append(character)
                position += 1
            }
            if index.count > (index.hasPrefix("-") ? 1 : 0), isAtJSONPathEnd {
                steps.append(JSONPathStep(asText: asText, key: index, isIndex: true))
                continue
            }
            position = start
            let key: String
            if current == "\"" {
                key = try quotedValue()
            } else {
                key = try jsonKeyName()
            }
            steps.append(JSONPathStep(asText: asText, key: key, isIndex: false))
        }
        return steps
    }

    /// A key's unquoted name: runs of anything but `(-:.,>)`, joined by dashes that do not start an arrow.
    private mutating func jsonKeyName() throws(RESTError) -> String {
        var parts: [String] = []
        while true {
            let part = take(until: ["(", "-", ":", ".", ",", ">", ")"]).trimmingSpaces
            guard !part.isEmpty else {
                throw failure(expecting: ["\"-\"", "digit", "any non reserved character different from: .,>()"])
            }
            parts.append(part)
            guard current == "-", peek(1) != ">" else { return parts.joined(separator: "-") }
            position += 1
        }
    }

    private var isAtJSONPathEnd: Bool {
        isAtEnd || looksAt("->") || looksAt("::") || current == "." || current == "," || current == ")"
    }

    /// Letters, digits, `_`, `$` and space: what PostgREST accepts unquoted in names and casts.
    static func isIdentifierCharacter(_ character: Character) -> Bool {
        // ASCII without Unicode's property tables: letters and digits are A-Z, a-z and 0-9 there.
        if let byte = character.asciiValue {
            return (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || byte == UInt8(ascii: " ")
        }
        return character.isLetter || character.isNumber || character == "_" || character == "$" || character == " "
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
