/// Parses `or=(…)` / `and=(…)` (and `not.or`, `embed.or`) into a ``LogicTree``.
///
/// ```swift
/// let (path, tree) = try LogicParser.parse(key: "or", value: "(is_read.eq.false,and(actor_id.eq.x,post_id.is.null))")
/// ```
/// Groups nest at most ``maximumDepth`` levels (the outer parentheses are the first): the parser
/// recurses once per level, and a 16 KiB URL of `and(and(…` would otherwise exhaust the stack.
enum LogicParser {
    /// How deeply groups may nest; PostgREST has no limit, and the apps nest two or three.
    static let maximumDepth = 16

    /// The key names the operator (`[embed.…][not.]and|or`); the value is the parenthesised list.
    static func parse(key: String, value: String) throws(RESTError) -> (path: [String], tree: LogicTree) {
        var segments = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let operatorName = segments.removeLast()
        let negated = segments.last == "not"
        if negated { segments.removeLast() }
        guard let logicOperator = LogicOperator(rawValue: operatorName) else {
            throw RESTError.parse("logic path", input: key, column: 1, details: "expecting logic operator (and, or)")
        }
        var scanner = GrammarScanner(value, subject: "logic tree")
        scanner.columnOffset = operatorName.count + (negated ? "not.".count : 0)
        // What follows the closing parenthesis is ignored, as PostgREST's parser leaves it.
        let members = try groupMembers(&scanner, depth: 1)
        return (segments, .group(logicOperator, negated: negated, members))
    }

    /// `( tree , tree … )`, `depth` groups deep.
    private static func groupMembers(_ scanner: inout GrammarScanner, depth: Int) throws(RESTError) -> [LogicTree] {
        scanner.skipWhitespace()
        guard depth <= maximumDepth else { throw .nestedTooDeep(.logicGroups, limit: maximumDepth, column: scanner.position + 1) }
        try scanner.expect("(")
        var members: [LogicTree] = []
        while true {
            scanner.skipWhitespace()
            members.append(try tree(&scanner, depth: depth))
            scanner.skipWhitespace()
            guard scanner.current == "," else { break }
            scanner.position += 1
        }
        try scanner.expect(")", name: "\",\" or \")\"")
        return members
    }

    /// A nested `[not.]and(…)`/`[not.]or(…)` group, or a `column.op.value` filter.
    private static func tree(_ scanner: inout GrammarScanner, depth: Int) throws(RESTError) -> LogicTree {
        for (prefix, logicOperator, negated) in groupPrefixes where scanner.looksAt(prefix) {
            // `and (` as well as `and(`: PostgREST allows spaces before a group's parenthesis.
            var after = scanner
            after.position += prefix.count
            after.skipWhitespace()
            guard after.current == "(" else { continue }
            scanner = after
            return .group(logicOperator, negated: negated, try groupMembers(&scanner, depth: depth + 1))
        }
        guard !scanner.isAtEnd, scanner.current != ")", scanner.current != "," else {
            throw scanner.failure(expecting: [
                GrammarScanner.fieldNameExpectation, "negation operator (not)", "logic operator (and, or)",
            ])
        }
        let name = try scanner.fieldName()
        let path = try scanner.jsonPath()
        try scanner.expect(".", name: "delimiter (.)")
        let (negated, operation) = try FilterParser.expression(&scanner, mode: .logic)
        return .filter(Filter(field: FieldReference(name: name, jsonPath: path), negated: negated, operation: operation))
    }

    private static let groupPrefixes: [(String, LogicOperator, Bool)] = [
        ("and", .and, false), ("or", .or, false), ("not.and", .and, true), ("not.or", .or, true),
    ]
}
