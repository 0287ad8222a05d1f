/// Filters and column references: operators are fixed SQL, operands are always parameters
/// that Postgres types from the column they are compared with (so `eq.A1B2…` compares
/// `uuid` values, whatever the letter case).
extension SQLBuilder {
    /// `"alias"."column"` followed by its JSON path; keys and indexes are parameters.
    mutating func append(field: FieldReference, of alias: String) {
        append(column: field.name, of: alias)
        for step in field.jsonPath {
            append(step.asText ? "->>" : "->")
            append("(")
            bind(step.key)
            append(step.isIndex ? "::int)" : "::text)")
        }
    }

    /// Every condition ANDed, each in parentheses.
    mutating func append(conditions: [LogicTree], of alias: String) {
        append(conditions, separator: " AND ") { sql, condition in sql.append(condition: condition, of: alias) }
    }

    /// One filter, or a group of them in parentheses.
    mutating func append(condition: LogicTree, of alias: String) {
        switch condition {
        case .filter(let filter):
            append(filter: filter, of: alias)
        case .group(let logicOperator, let negated, let members):
            append(negated ? "NOT (" : "(")
            append(members, separator: logicOperator == .and ? " AND " : " OR ") { sql, member in sql.append(condition: member, of: alias) }
            append(")")
        }
    }

    /// `(column op $n)`, or `NOT (…)` for `not.`.
    mutating func append(filter: Filter, of alias: String) {
        append(filter.negated ? "NOT (" : "(")
        append(field: filter.field, of: alias)
        switch filter.operation {
        case .compare(let comparison, let quantifier, let value):
            append(" ")
            append(comparison.sql)
            append(" ")
            let operand = comparison == .like || comparison == .ilike ? value.replacingOccurrences(of: "*", with: "%") : value
            switch quantifier {
            case .none: bind(operand)
            case .any?:
                append("ANY(")
                bind(operand)
                append(")")
            case .all?:
                append("ALL(")
                bind(operand)
                append(")")
            }
        case .in(let values):
            append(" = ANY(")
            bind(values == [""] ? "{}" : values.postgresArrayText)
            append(")")
        case .is(let value):
            append(" IS ")
            append(value.sql)
        case .isDistinct(let value):
            append(" IS DISTINCT FROM ")
            bind(value)
        case .fullText(let fullText, let language, let value):
            append(" @@ ")
            append(fullText.function)
            append("(")
            if let language {
                bind(language)
                append("::regconfig, ")
            }
            bind(value)
            append(")")
        }
        append(")")
    }
}

extension Array where Element == String {
    /// A Postgres array literal with every element quoted and escaped: `{"a","b\"c"}`.
    var postgresArrayText: String {
        "{" + map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
