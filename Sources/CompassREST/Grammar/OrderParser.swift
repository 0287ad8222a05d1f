/// Parses `order=`: `col[.asc|.desc][.nullsfirst|.nullslast]`, comma-separated, and
/// `relation(col)` terms for to-one embeds.
///
/// ```swift
/// let terms = try OrderParser.parse("occurred_at.desc.nullslast,id")
/// ```
enum OrderParser {
    static func parse(_ text: String) throws(RESTError) -> [OrderTerm] {
        var scanner = GrammarScanner(text, subject: "order")
        var terms: [OrderTerm] = []
        while true {
            scanner.skipWhitespace()
            terms.append(try term(&scanner))
            scanner.skipWhitespace()
            if scanner.isAtEnd { return terms }
            guard scanner.current == "," else {
                throw scanner.failure(at: scanner.position, expecting: ["\",\"", "end of input"], quotingCharacter: true)
            }
            scanner.position += 1
        }
    }

    private static func term(_ scanner: inout GrammarScanner) throws(RESTError) -> OrderTerm {
        let name = try scanner.fieldName()
        var relation: String?
        var field: FieldReference
        if scanner.consume("(") {
            relation = name
            scanner.skipWhitespace()
            field = FieldReference(name: try scanner.fieldName(), jsonPath: try scanner.jsonPath())
            scanner.skipWhitespace()
            try scanner.expect(")")
        } else {
            field = FieldReference(name: name, jsonPath: try scanner.jsonPath())
        }
        var term = OrderTerm(relation: relation, field: field, direction: nil, nulls: nil)
        if scanner.current == "." {
            let start = scanner.position
            scanner.position += 1
            if let direction = word(&scanner, OrderTerm.Direction.self) {
                term.direction = direction
            } else if let nulls = word(&scanner, OrderTerm.NullsOrder.self) {
                term.nulls = nulls
                return term
            } else {
                throw scanner.failure(at: start + 1, expecting: ["\"asc\"", "\"desc\"", "\"nullsfirst\"", "\"nullslast\""])
            }
        }
        if term.direction != nil, scanner.current == "." {
            let start = scanner.position
            scanner.position += 1
            guard let nulls = word(&scanner, OrderTerm.NullsOrder.self) else {
                throw scanner.failure(at: start + 1, expecting: ["\"nullsfirst\"", "\"nullslast\""])
            }
            term.nulls = nulls
        }
        return term
    }

    /// One of `options`' raw values as a whole word (followed by `.`, `,`, space or the end).
    private static func word<Option: RawRepresentable & CaseIterable>(
        _ scanner: inout GrammarScanner, _ options: Option.Type
    ) -> Option? where Option.RawValue == String {
        for option in Option.allCases where scanner.looksAt(option.rawValue) {
            // A prefix is enough (`nullslasttt` reads `nullslast`, then fails on `t`), as Parsec's `string`.
            scanner.position += option.rawValue.count
            return option
        }
        return nil
    }
}
