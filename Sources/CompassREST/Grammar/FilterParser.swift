/// Parses filter operands: `[not.]op.value`, `in.(…)`, `is.null`, `fts(english).word`.
///
/// ```swift
/// let filter = try FilterParser.filter(key: "logged_by", value: "eq.A1000000-…")
/// ```
enum FilterParser {
    /// Where a value ends: at the end of the parameter, or (inside `or=(…)`) at `,` or `)`.
    enum ValueMode {
        case rest
        case logic
    }

    static let operatorExpectation = "operator (eq, gt, ...)"

    /// A top-level filter parameter: the key is `[embed.…]column[->path]`, the value the operator expression.
    static func filter(key: String, value: String) throws(RESTError) -> (path: [String], filter: Filter) {
        // Keys (column names) repeat from request to request: each is parsed once.
        let (path, field) = try treePaths.value(for: key) { (key) throws(RESTError) in try treePath(key) }
        var scanner = GrammarScanner(value, subject: "filter")
        let (negated, operation) = try expression(&scanner, mode: .rest)
        return (path, Filter(field: field, negated: negated, operation: operation))
    }

    private static let treePaths = ParseMemo<String, (path: [String], field: FieldReference)>()

    /// `a.b.column->x` → embed path `[a, b]` and the field.
    static func treePath(_ key: String) throws(RESTError) -> (path: [String], field: FieldReference) {
        var scanner = GrammarScanner(key, subject: "tree path")
        var names = [try scanner.fieldName()]
        while scanner.current == "." {
            scanner.position += 1
            names.append(try scanner.fieldName())
        }
        let path = try scanner.jsonPath()
        guard scanner.isAtEnd else { throw scanner.failure(expecting: ["\".\"", "\"->\"", "end of input"]) }
        let name = names.removeLast()
        return (names, FieldReference(name: name, jsonPath: path))
    }

    /// `[not.]operator…` at the cursor.
    static func expression(_ scanner: inout GrammarScanner, mode: ValueMode) throws(RESTError) -> (Bool, FilterOperation) {
        let negated = scanner.consume("not.")
        let start = scanner.position
        var word = ""
        while let character = scanner.current, character.isLetter {
            word.append(character)
            scanner.position += 1
        }
        let expected = negated ? [operatorExpectation] : ["\"not\"", operatorExpectation]
        switch word {
        case "in":
            try scanner.expect(".", name: "delimiter (.)")
            let values = try list(&scanner)
            try end(&scanner, mode: mode)
            return (negated, .in(values))
        case "is":
            try scanner.expect(".", name: "delimiter (.)")
            let valueStart = scanner.position
            let text = scanner.take(until: mode == .logic ? [",", ")"] : [])
            guard let value = IsValue(rawValue: text.lowercased()) else {
                throw scanner.failure(at: valueStart, expecting: ["isVal: (null, not_null, true, false, unknown)"])
            }
            return (negated, .is(value))
        case "isdistinct":
            try scanner.expect(".", name: "delimiter (.)")
            return (negated, .isDistinct(try value(&scanner, mode: mode)))
        default:
            break
        }
        if let fullText = FullTextOperator(rawValue: word) {
            var language: String?
            if scanner.consume("(") {
                language = scanner.take(until: [")"]).trimmingSpaces
                guard let checked = language, !checked.isEmpty, checked.allSatisfy(GrammarScanner.isIdentifierCharacter) else {
                    throw scanner.failure(expecting: ["letter or digit"])
                }
                try scanner.expect(")")
            }
            try scanner.expect(".", name: "delimiter (.)")
            return (negated, .fullText(fullText, language: language, value: try value(&scanner, mode: mode)))
        }
        guard let comparison = ComparisonOperator(rawValue: word) else {
            throw scanner.failure(at: start, expecting: expected)
        }
        var quantifier: Quantifier?
        if comparison.isQuantifiable, scanner.current == "(" {
            if scanner.consume("(any)") {
                quantifier = .any
            } else if scanner.consume("(all)") {
                quantifier = .all
            } else {
                throw scanner.failure(at: start, expecting: [operatorExpectation])
            }
        }
        try scanner.expect(".", name: "delimiter (.)")
        return (negated, .compare(comparison, quantifier: quantifier, value: try value(&scanner, mode: mode)))
    }

    /// `(a, "b,c", d)`: elements may be double-quoted (with `\` escapes) when they hold `,` or `)`.
    static func list(_ scanner: inout GrammarScanner) throws(RESTError) -> [String] {
        scanner.skipWhitespace()
        try scanner.expect("(")
        scanner.skipWhitespace()
        var values: [String] = []
        while true {
            values.append(try element(&scanner, stops: [",", ")"]))
            guard scanner.current == "," else { break }
            scanner.position += 1
        }
        scanner.skipWhitespace()
        try scanner.expect(")", name: "\",\" or \")\"")
        scanner.skipWhitespace()
        return values
    }

    /// A quoted value that ends at a stop, else the raw characters up to the next stop.
    private static func element(_ scanner: inout GrammarScanner, stops: Set<Character>) throws(RESTError) -> String {
        let start = scanner.position
        if scanner.current == "\"", let quoted = try? scanner.quotedValue(), scanner.isAtEnd || stops.contains(scanner.current!) {
            return quoted
        }
        scanner.position = start
        return scanner.take(until: stops)
    }

    /// An operand: the rest of the parameter, or inside a logic tree a quoted value, a
    /// `{…}` array literal, or the characters up to `,`/`)`.
    private static func value(_ scanner: inout GrammarScanner, mode: ValueMode) throws(RESTError) -> String {
        guard mode == .logic else { return scanner.takeRest() }
        if scanner.current == "{" {
            let start = scanner.position
            _ = scanner.take(until: ["}"])
            if scanner.consume("}") { return scanner.text(start..<scanner.position) }
            scanner.position = start
        }
        return try element(&scanner, stops: [",", ")"])
    }

    /// Only the end of the parameter (or, in a logic tree, `,`/`)`) may follow an `in` list.
    private static func end(_ scanner: inout GrammarScanner, mode: ValueMode) throws(RESTError) {
        if scanner.isAtEnd { return }
        if mode == .logic, scanner.current == "," || scanner.current == ")" { return }
        throw scanner.failure(expecting: ["end of input"])
    }
}
