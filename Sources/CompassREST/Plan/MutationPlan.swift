/// An insert, update or delete resolved against the schema cache, plus the read that
/// shapes what it returns.
struct MutationPlan: Sendable {
    enum Kind: Sendable {
        /// `POST`: the body's columns, and for upserts the conflict target.
        case insert(columns: [ColumnInfo], onConflict: [String]?, resolution: Preferences.Resolution?, applyDefaults: Bool)
        /// `PATCH`: the body's columns.
        case update(columns: [ColumnInfo])
        /// `DELETE`.
        case delete
    }

    var table: TableInfo
    var kind: Kind
    var body: RequestBody?
    /// Filters on the mutated table (update and delete).
    var conditions: [LogicTree]
    /// Whether the statement returns the rows (representation or a Location), else `RETURNING 1`.
    var returnsRows: Bool
    /// The select applied to the returned rows.
    var read: ReadPlan

    /// A PATCH whose body names no column: nothing to update, no rows returned.
    var isEmptyUpdate: Bool {
        if case .update(let columns) = kind { return columns.isEmpty }
        return false
    }
}

/// Builds a ``MutationPlan``: body keys and `columns=`/`on_conflict=` checked against the table.
enum MutationPlanner {
    /// `requiresFilters` refuses an update or delete of every row (21000), as `pg-safeupdate` would.
    static func plan(
        method: RESTMethod, table: TableInfo, cache: SchemaCache, parameters: QueryParameters,
        preferences: Preferences, body: RequestBody?, requiresFilters: Bool
    ) throws(RESTError) -> MutationPlan {
        if let columns = parameters.columns {
            for name in columns where table.column(name) == nil {
                throw .columnNotFound(name, table: table.name)
            }
        }
        var planner = ReadPlanner(cache: cache)
        let read = try planner.plan(table: table, parameters: parameters, range: .all, rootFilters: false)
        var conditions: [LogicTree] = []
        let kind: MutationPlan.Kind
        switch method {
        case .post:
            guard let body else { throw .invalidBody(.emptyOrInvalidJSON) }
            var onConflict: [String]?
            if preferences.resolution != nil {
                onConflict = parameters.onConflict ?? table.primaryKey
                for name in onConflict ?? [] where table.column(name) == nil {
                    throw .undefinedColumn(name, table: table.name)
                }
                if onConflict?.isEmpty == true { onConflict = nil }
            }
            kind = .insert(
                columns: try body.columns(of: table), onConflict: onConflict, resolution: preferences.resolution,
                applyDefaults: preferences.missing == .default)
        case .patch:
            guard let body else { throw .invalidBody(.emptyOrInvalidJSON) }
            kind = .update(columns: try body.columns(of: table))
        default:
            kind = .delete
        }
        if method != .post {
            for (path, filter) in parameters.filters where path.isEmpty {
                try ReadPlanner.check(filter.field, in: table)
                conditions.append(.filter(filter))
            }
            for (path, tree) in parameters.logic where path.isEmpty {
                try ReadPlanner.check(tree, in: table)
                conditions.append(tree)
            }
        }
        if requiresFilters, conditions.isEmpty, let statement = filterlessStatement(kind) {
            throw .missingWhereClause(statement)
        }
        let returnsRows = preferences.representation == .representation || preferences.representation == .headersOnly
        return MutationPlan(table: table, kind: kind, body: body, conditions: conditions, returnsRows: returnsRows, read: read)
    }

    /// The statement `pg-safeupdate` would stop without a `WHERE`: an update that sets something
    /// (an empty body runs no `UPDATE`, so PostgREST answers it without error) or a delete.
    private static func filterlessStatement(_ kind: MutationPlan.Kind) -> RESTError.FilterlessStatement? {
        switch kind {
        case .update(let columns): columns.isEmpty ? nil : .update
        case .delete: .delete
        case .insert: nil
        }
    }
}

/// The HTTP methods the REST API serves.
public enum RESTMethod: String, Sendable {
    case get = "GET", head = "HEAD", post = "POST", patch = "PATCH", delete = "DELETE"

    /// GET and HEAD run in a read-only transaction, as PostgREST runs them.
    var isRead: Bool { self == .get || self == .head }
}
