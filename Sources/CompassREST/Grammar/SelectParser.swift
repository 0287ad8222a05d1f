/// Parses `select=`: `*`, `alias:column->path::cast`, `alias:column::cast.sum()::cast`, `alias:count()::cast`,
/// `alias:relation!hint!inner(…)`, `...relation(…)`, nested.
///
/// ```swift
/// let items = try SelectParser.parse("*,actor:profiles!actor_id(username,full_name)")
/// ```
/// Embeds nest at most `maximumDepth` levels: the parser recurses once per level, so the bound
/// is checked as each `(` opens, before a hostile `a(a(a(…` can exhaust the stack.
enum SelectParser {
    /// The items of a `select=` value; an empty value selects nothing.
    static func parse(_ text: String, maximumDepth: Int = QueryParameters.defaultMaximumEmbedDepth) throws(RESTError) -> [SelectItem] {
        var scanner = GrammarScanner(text, subject: "select parameter")
        let items = try forest(&scanner, depth: 0, maximumDepth: maximumDepth)
        // PostgREST's parser ends the top level where no `,` follows an item and ignores the rest:
        // a column must be followed by `,`, `)` or the end, so after one only a stray `)` can be
        // left (`name,rel(a))`), but after an embed anything can (`name,projects(count)'`), unless
        // it starts with a space or a tab, which its `,` separator consumes before it fails. Its
        // own spec relies on both.
        let endsAfterEmbed = items.last?.isEmbed == true && !scanner.followsWhitespace
        guard scanner.isAtEnd || scanner.current == ")" || endsAfterEmbed else {
            throw scanner.failure(expecting: ["\",\"", "end of input"])
        }
        return items
    }

    /// The items of one level; `depth` is how many embeds enclose it.
    private static func forest(_ scanner: inout GrammarScanner, depth: Int, maximumDepth: Int) throws(RESTError) -> [SelectItem] {
        scanner.skipWhitespace()
        if scanner.isAtEnd || scanner.current == ")" { return [] }
        var items = [try item(&scanner, depth: depth, maximumDepth: maximumDepth)]
        while true {
            scanner.skipWhitespace()
            guard scanner.current == "," else { return items }
            scanner.position += 1
            items.append(try item(&scanner, depth: depth, maximumDepth: maximumDepth))
        }
    }

    private static func item(_ scanner: inout GrammarScanner, depth: Int, maximumDepth: Int) throws(RESTError) -> SelectItem {
        scanner.skipWhitespace()
        if scanner.current == "*" {
            scanner.position += 1
            try end(&scanner)
            return .column(SelectColumn(field: FieldReference(name: "*"), alias: nil, cast: nil))
        }
        if scanner.consume("...") {
            // `...relation(…)`: the embed's keys join the parent's (to-one), or become arrays (to-many).
            let name = try scanner.fieldName()
            guard scanner.current == "!" || scanner.current == "(" else { throw scanner.failure(expecting: ["\"!\"", "\"(\""]) }
            var spread = try embed(&scanner, relation: name, alias: nil, depth: depth + 1, maximumDepth: maximumDepth)
            spread.isSpread = true
            return .embed(spread)
        }
        let alias = aliasPrefix(&scanner)
        let start = scanner.position
        let name = try scanner.fieldName()
        if name == "count", scanner.position - start == 5, scanner.consume("()") {
            // `count()`: the rows of the level (or of each group), never an embed named `count`.
            var column = SelectColumn(field: FieldReference(name: "*"), alias: alias, cast: nil, aggregate: .count)
            column.aggregateCast = try castSuffix(&scanner)
            try end(&scanner)
            return .column(column)
        }
        if scanner.current == "!" || scanner.current == "(" {
            return .embed(try embed(&scanner, relation: name, alias: alias, depth: depth + 1, maximumDepth: maximumDepth))
        }
        let path = try scanner.jsonPath()
        var column = SelectColumn(field: FieldReference(name: name, jsonPath: path), alias: alias, cast: try castSuffix(&scanner))
        if let aggregate = aggregateSuffix(&scanner) {
            column.aggregate = aggregate
            column.aggregateCast = try castSuffix(&scanner)
        }
        try end(&scanner)
        return .column(column)
    }

    /// `::type`, if present.
    private static func castSuffix(_ scanner: inout GrammarScanner) throws(RESTError) -> String? {
        guard scanner.consume("::") else { return nil }
        let start = scanner.position
        while let character = scanner.current, GrammarScanner.isIdentifierCharacter(character) { scanner.position += 1 }
        guard scanner.position > start else { throw scanner.failure(expecting: ["letter or digit"]) }
        return scanner.text(start..<scanner.position).trimmingSpaces
    }

    /// `.sum()`, `.avg()`, `.count()`, `.max()` or `.min()`, if next; otherwise the cursor is left alone.
    private static func aggregateSuffix(_ scanner: inout GrammarScanner) -> AggregateFunction? {
        for function in AggregateFunction.allCases where scanner.consume("." + function.rawValue + "()") {
            return function
        }
        return nil
    }

    /// `alias:` (one colon, not `::`) before a name, if present; otherwise the cursor is left alone.
    static func aliasPrefix(_ scanner: inout GrammarScanner) -> String? {
        let start = scanner.position
        guard let alias = try? scanner.fieldName(), scanner.current == ":", scanner.peek(1) != ":" else {
            scanner.position = start
            return nil
        }
        scanner.position += 1
        scanner.skipWhitespace()
        return alias
    }

    private static func embed(
        _ scanner: inout GrammarScanner, relation: String, alias: String?, depth: Int, maximumDepth: Int
    ) throws(RESTError) -> EmbedSelect {
        var hint: String?
        var isInner = false
        for _ in 0..<2 where scanner.current == "!" {
            scanner.position += 1
            if let join = joinKeyword(&scanner) {
                isInner = join
            } else {
                hint = try scanner.fieldName()
            }
        }
        guard depth <= maximumDepth else { throw .nestedTooDeep(.embeds, limit: maximumDepth, column: scanner.position + 1) }
        try scanner.expect("(")
        let items = try forest(&scanner, depth: depth, maximumDepth: maximumDepth)
        scanner.skipWhitespace()
        try scanner.expect(")")
        return EmbedSelect(relation: relation, alias: alias, hint: hint, isInner: isInner, items: items)
    }

    /// `inner` or `left` as a whole word before `!` or `(`: whether the join is inner.
    private static func joinKeyword(_ scanner: inout GrammarScanner) -> Bool? {
        for (word, inner) in [("inner", true), ("left", false)] where scanner.looksAt(word) {
            let next = scanner.peek(word.count)
            if next == "!" || next == "(" {
                scanner.position += word.count
                return inner
            }
        }
        return nil
    }

    /// After a column: `,`, `)` or the end.
    private static func end(_ scanner: inout GrammarScanner) throws(RESTError) {
        scanner.skipWhitespace()
        guard scanner.isAtEnd || scanner.current == "," || scanner.current == ")" else {
            throw scanner.failure(expecting: ["\"::\"", "\".\"", "\")\"", "\",\"", "end of input"])
        }
    }
}
