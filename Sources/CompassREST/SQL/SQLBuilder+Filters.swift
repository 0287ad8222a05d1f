/// Filters and column references: operators are fixed SQL, operands are always parameters
/// that Postgres types from the column they are compared with (so `eq.A1B2…` compares
/// `uuid` values, whatever the letter case).
extension SQLBuilder {
    /// `"alias"."column"` followed by its JSON path; keys and indexes are parameters. A path on
    /// a column that is not json or jsonb (an array, a composite) reads `to_jsonb` of it, as PostgREST.
    mutating func append(field: FieldReference, of alias: String) {
        if field.jsonPath.isEmpty || field.isJSON {
            append(value: field, of: alias)
        } else {
            append("to_jsonb(")
            append(value: field, of: alias)
            append(")")
        }
        for step in field.jsonPath {
            append(step.asText ? "->>" : "->")
            append("(")
            bind(step.key)
            // An index is cast; a key is left for Postgres to type, as PostgREST's literal keys are
            // (`->` on something not JSON is then "text -> unknown", in PostgREST's words).
            append(step.isIndex ? "::int)" : ")")
        }
    }

    /// `"alias"."column"`, or for a computed field its function of the row:
    /// `"schema"."fn"(ROW("alias".*)::"schema"."table")`. The cast names the row's type even where
    /// the row comes from a CTE (a write's or a call's rows), and picks the overload for that table.
    private mutating func append(value field: FieldReference, of alias: String) {
        guard let computed = field.computed else { return append(column: field.name, of: alias) }
        append(computed, of: alias)
    }

    /// `"schema"."fn"(ROW("alias".*)::"schema"."table")`: a computed field's or relationship's call on a row.
    mutating func append(_ computed: ComputedField, of alias: String) {
        append(qualifiedName: computed.function, in: computed.schema)
        append("(ROW(")
        append(identifier: alias)
        append(".*)::")
        append(qualifiedName: computed.table, in: computed.schema)
        append(")")
    }

    /// A selected column as the reply shows it: through its data representation when it has one.
    mutating func append(output column: PlannedColumn, of alias: String) {
        guard let format = column.format else { return append(field: column.field, of: alias) }
        append(format) { sql in sql.append(field: column.field, of: alias) }
    }

    /// `"schema"."function"(argument)`: a data representation's cast function applied.
    mutating func append(_ function: CastFunction, argument: (inout SQLBuilder) -> Void) {
        append(qualifiedName: function.name, in: function.schema)
        append("(")
        argument(&self)
        append(")")
    }

    /// A value as the next parameter, typed `text` (what a representation's text parser takes).
    mutating func bindText(_ value: String) {
        bind(value)
        append("::text")
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
        case .embedPresence(let embedAlias, let isToOne, let present):
            // A row of nulls is still a row: IS DISTINCT FROM NULL, not IS NOT NULL (as PostgREST).
            if isToOne {
                append(identifier: embedAlias)
            } else {
                append(column: embedAlias, of: embedAlias)
            }
            append(present ? " IS DISTINCT FROM NULL" : " IS NOT DISTINCT FROM NULL")
        }
    }

    /// `(column op $n)`, or `NOT (…)` for `not.`.
    mutating func append(filter: Filter, of alias: String) {
        append(filter.negated ? "NOT (" : "(")
        if case .fullText(_, let language, _) = filter.operation {
            append(searched: filter.field, language: language, of: alias)
        } else {
            append(field: filter.field, of: alias)
        }
        switch filter.operation {
        case .compare(let comparison, let quantifier, let value):
            append(" ")
            append(comparison.sql)
            append(" ")
            let isPattern = comparison == .like || comparison == .ilike
            let operand = isPattern ? value.replacingOccurrences(of: "*", with: "%") : value
            switch quantifier {
            case .none:
                if let parser = filter.field.parser, !isPattern {
                    append(parser) { sql in sql.bindText(operand) }
                } else {
                    bind(operand)
                }
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
            if let parser = filter.field.parser {
                // Each value through the domain's text parser.
                append("SELECT ")
                append(parser) { sql in sql.append("pgrst_value") }
                append(" FROM unnest(")
                bind(values == [""] ? "{}" : values.postgresArrayText)
                append("::text[]) AS pgrst_value")
            } else {
                bind(values == [""] ? "{}" : values.postgresArrayText)
            }
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
            appendConfiguration(language)
            bind(value)
            append(")")
        }
        append(")")
    }

    /// The searched side of a full-text filter: a tsvector column as it is, anything else
    /// (text, json, jsonb, a JSON path) through `to_tsvector` in the filter's configuration.
    private mutating func append(searched field: FieldReference, language: String?, of alias: String) {
        if field.jsonPath.isEmpty, field.columnType == "tsvector" {
            return append(field: field, of: alias)
        }
        append("to_tsvector(")
        appendConfiguration(language)
        append(field: field, of: alias)
        append(")")
    }

    /// `$n::regconfig, ` for a text search configuration, nothing for the server's default.
    private mutating func appendConfiguration(_ language: String?) {
        guard let language else { return }
        bind(language)
        append("::regconfig, ")
    }
}

extension Array where Element == String {
    /// A Postgres array literal with every element quoted and escaped: `{"a","b\"c"}`.
    var postgresArrayText: String {
        "{" + map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            .joined(separator: ",") + "}"
    }
}
