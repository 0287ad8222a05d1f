/// A horizontal filter: `column=op.value`, `column=not.op.value`, inside or outside `or=(…)`.
public struct Filter: Sendable, Hashable {
    /// The filtered column.
    public var field: FieldReference
    /// `not.` before the operator.
    public var negated: Bool
    /// The operator and its operand.
    public var operation: FilterOperation
}

/// An operator with its operand, as parsed (values are still text: Postgres casts them).
public enum FilterOperation: Sendable, Hashable {
    /// `eq`, `gt`, `like`, … with an optional `(any)`/`(all)` quantifier over a `{a,b}` list.
    case compare(ComparisonOperator, quantifier: Quantifier?, value: String)
    /// `in.(a,b,"c,d")`.
    case `in`([String])
    /// `is.null`, `is.not_null`, `is.true`, `is.false`, `is.unknown`.
    case `is`(IsValue)
    /// `isdistinct.value`.
    case isDistinct(String)
    /// `fts`, `plfts`, `phfts`, `wfts`, with an optional text search configuration.
    case fullText(FullTextOperator, language: String?, value: String)
}

/// Binary operators with a single operand.
public enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    case eq, neq, gt, gte, lt, lte, like, ilike, match, imatch
    case cs, cd, ov, sl, sr, nxr, nxl, adj

    /// Operators that accept an `(any)`/`(all)` quantifier.
    var isQuantifiable: Bool {
        switch self {
        case .eq, .gt, .gte, .lt, .lte, .like, .ilike, .match, .imatch: return true
        default: return false
        }
    }

    /// The SQL operator, written here so it is source text (see ``SQLBuilder``).
    var sql: StaticString {
        switch self {
        case .eq: return "="
        case .neq: return "<>"
        case .gt: return ">"
        case .gte: return ">="
        case .lt: return "<"
        case .lte: return "<="
        case .like: return "LIKE"
        case .ilike: return "ILIKE"
        case .match: return "~"
        case .imatch: return "~*"
        case .cs: return "@>"
        case .cd: return "<@"
        case .ov: return "&&"
        case .sl: return "<<"
        case .sr: return ">>"
        case .nxr: return "&<"
        case .nxl: return "&>"
        case .adj: return "-|-"
        }
    }
}

/// `(any)` or `(all)` after a quantifiable operator.
public enum Quantifier: String, Sendable, Hashable {
    case any, all
}

/// The operands of `is.`.
public enum IsValue: String, Sendable, Hashable {
    case null, notNull = "not_null", `true`, `false`, unknown

    /// The SQL after `IS`.
    var sql: StaticString {
        switch self {
        case .null: return "NULL"
        case .notNull: return "NOT NULL"
        case .true: return "TRUE"
        case .false: return "FALSE"
        case .unknown: return "UNKNOWN"
        }
    }
}

/// Full-text search operators and the tsquery function each uses.
public enum FullTextOperator: String, Sendable, Hashable, CaseIterable {
    case fts, plfts, phfts, wfts

    /// The function that turns the operand into a tsquery.
    var function: StaticString {
        switch self {
        case .fts: return "to_tsquery"
        case .plfts: return "plainto_tsquery"
        case .phfts: return "phraseto_tsquery"
        case .wfts: return "websearch_to_tsquery"
        }
    }
}

/// `and=(…)`/`or=(…)` trees of filters.
public indirect enum LogicTree: Sendable, Hashable {
    /// One filter.
    case filter(Filter)
    /// `[not.]and(…)` or `[not.]or(…)`.
    case group(LogicOperator, negated: Bool, [LogicTree])
    /// Made by the planner from `embed=is.null`/`embed=not.is.null`: whether the embed at
    /// `alias` found a row (a to-one embed's row, a to-many embed's aggregate).
    case embedPresence(alias: String, isToOne: Bool, present: Bool)
}

/// How a group combines its members.
public enum LogicOperator: String, Sendable, Hashable {
    case and, or
}

/// One term of `order=`.
public struct OrderTerm: Sendable, Hashable {
    /// For `relation(column)`: the to-one embed whose column orders the parent.
    public var relation: String?
    /// The column.
    public var field: FieldReference
    /// `asc`/`desc`; nil keeps Postgres's default (ascending).
    public var direction: Direction?
    /// `nullsfirst`/`nullslast`; nil keeps Postgres's default.
    public var nulls: NullsOrder?

    public enum Direction: String, Sendable, Hashable, CaseIterable { case asc, desc }
    public enum NullsOrder: String, Sendable, Hashable, CaseIterable { case nullsfirst, nullslast }
}
