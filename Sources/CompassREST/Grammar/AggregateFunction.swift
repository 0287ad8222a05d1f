/// An aggregate `select=` may apply, as PostgREST names them: `amount.sum()`, `count()`.
/// Only when aggregates are enabled (``RESTConfiguration/allowsAggregates``).
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    case sum, avg, count, max, min

    /// The function as SQL, schema-qualified so no function of the exposed schema can stand in for it.
    var sql: StaticString {
        switch self {
        case .sum: "pg_catalog.sum("
        case .avg: "pg_catalog.avg("
        case .count: "pg_catalog.count("
        case .max: "pg_catalog.max("
        case .min: "pg_catalog.min("
        }
    }
}
