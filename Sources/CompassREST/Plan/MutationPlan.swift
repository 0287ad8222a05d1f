/// An insert, update or delete resolved against the schema cache, plus the read that
/// shapes what it returns.
struct MutationPlan: Sendable {
    enum Kind: Sendable {
        /// `POST`: the body's columns, and for upserts the conflict target.
        case insert(columns: [ColumnInfo], onConflict: [String]?, resolution: Preferences.Resolution?, applyDefaults: Bool)
        /// `PATCH`: the body's columns; with `missing=default`, those it lacks take their default.
        case update(columns: [ColumnInfo], applyDefaults: Bool)
        /// `DELETE`.
        case delete
    }

    var table: TableInfo
    var kind: Kind
    var body: RequestBody?
    /// Filters on the mutated table (update and delete); for `PUT`, the primary key the body's row must have.
    var conditions: [LogicTree]
    /// `PUT`: one row (the body's first) inserted, or replacing the row with its primary key.
    var isSingleUpsert = false
    /// Whether the statement returns the rows (representation or a Location), else `RETURNING 1`.
    var returnsRows: Bool
    /// The select applied to the returned rows.
    var read: ReadPlan

    /// A `POST` upsert that merges duplicates: its statement counts the rows it inserted (not
    /// updated), so that one which only updated answers 200, as PostgREST.
    var countsInserts: Bool {
        guard !isSingleUpsert, case .insert(let columns, let onConflict, let resolution, _) = kind else { return false }
        return onConflict != nil && resolution == .mergeDuplicates && !columns.isEmpty
    }

    /// A PATCH whose body names no column: nothing to update, no rows returned.
    var isEmptyUpdate: Bool {
        if case .update(let columns, _) = kind { return columns.isEmpty }
        return false
    }
}

/// Builds a ``MutationPlan``: body keys and `columns=`/`on_conflict=` checked against the table.
enum MutationPlanner {
    /// `requiresFilters` refuses an update or delete of every row (21000), as `pg-safeupdate` would.
    static func plan(
        method: RESTMethod, table: TableInfo, cache: SchemaCache, parameters: QueryParameters,
        preferences: Preferences, body: RequestBody?, requiresFilters: Bool,
        allowsAggregates: Bool = false
    ) throws(RESTError) -> MutationPlan {
        if let columns = parameters.columns {
            for name in columns where table.column(name) == nil {
                throw .columnNotFound(name, table: table.name)
            }
        }
        var planner = ReadPlanner(cache: cache, allowsAggregates: allowsAggregates)
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
        case .put:
            guard let body else { throw .invalidBody(.emptyOrInvalidJSON) }
            try checkSingleUpsert(table: table, parameters: parameters)
            guard Set(table.primaryKey).isSubset(of: body.keys) else { throw .putPrimaryKeyMismatch }
            kind = .insert(
                columns: try body.columns(of: table), onConflict: table.primaryKey, resolution: .mergeDuplicates,
                applyDefaults: preferences.missing == .default)
        case .patch:
            guard let body else { throw .invalidBody(.emptyOrInvalidJSON) }
            kind = .update(columns: try body.columns(of: table), applyDefaults: preferences.missing == .default)
        default:
            kind = .delete
        }
        if method != .post {
            // The statement's WHERE sees the table alone, never the embeds of what it returns.
            var target = read
            target.embeds = []
            for (path, filter) in parameters.filters where path.isEmpty {
                conditions.append(try ReadPlanner.resolve(.filter(filter), in: target))
            }
            for (path, tree) in parameters.logic where path.isEmpty {
                conditions.append(try ReadPlanner.resolve(tree, in: target))
            }
        }
        if requiresFilters, conditions.isEmpty, let statement = filterlessStatement(kind) {
            throw .missingWhereClause(statement)
        }
        let returnsRows = preferences.representation == .representation || preferences.representation == .headersOnly
        return MutationPlan(
            table: table, kind: kind, body: body, conditions: conditions, isSingleUpsert: method == .put, returnsRows: returnsRows,
            read: read)
    }

    /// `PUT` names its row by the whole primary key, each column with `eq` (PGRST105), and no window (PGRST114).
    private static func checkSingleUpsert(table: TableInfo, parameters: QueryParameters) throws(RESTError) {
        if parameters.limits[[]] != nil || parameters.offsets[[]] != nil { throw .putWithRange }
        let root = parameters.filters.filter { $0.path.isEmpty }.map(\.filter)
        let allEqual = root.allSatisfy { filter in
            guard !filter.negated, filter.field.jsonPath.isEmpty, case .compare(.eq, nil, _) = filter.operation else { return false }
            return true
        }
        let named = root.map(\.field.name)
        guard !table.primaryKey.isEmpty, allEqual, parameters.logic.filter({ $0.path.isEmpty }).isEmpty,
            named.count == Set(named).count, Set(named) == Set(table.primaryKey)
        else { throw .putFiltersNotPrimaryKey }
    }

    /// The statement `pg-safeupdate` would stop without a `WHERE`: an update that sets something
    /// (an empty body runs no `UPDATE`, so PostgREST answers it without error) or a delete.
    private static func filterlessStatement(_ kind: MutationPlan.Kind) -> RESTError.FilterlessStatement? {
        switch kind {
        case .update(let columns, _): columns.isEmpty ? nil : .update
        case .delete: .delete
        case .insert: nil
        }
    }
}

/// The HTTP methods the REST API serves.
public enum RESTMethod: String, Sendable {
    case get = "GET", head = "HEAD", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"

    /// GET and HEAD run in a read-only transaction, as PostgREST runs them.
    var isRead: Bool { self == .get || self == .head }
}
