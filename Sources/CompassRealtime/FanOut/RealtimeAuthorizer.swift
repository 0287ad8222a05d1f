import Postgres

/// Asks Postgres which rows a set of subscribers may see, all in one round trip.
///
/// Each check is one (table, role + claims) group with the keys of the rows to test. Every
/// group becomes one pipeline segment (its own implicit transaction, closed by its own
/// sync), so one group's failure — say a role without SELECT on the table — fails only
/// that group:
///
/// ```sql
/// SELECT set_config('role', $1, true), set_config('request.jwt.claims', $2, true)
/// SELECT u.ord FROM unnest($1::uuid[]) WITH ORDINALITY AS u(k0, ord)
///  WHERE EXISTS (SELECT 1 FROM "public"."interactions" AS t WHERE t."id" = u.k0)
/// ```
/// RLS policies then decide, with the subscriber's claims, exactly as for a PostgREST read.
struct RealtimeAuthorizer: Sendable {
    let database: RealtimeDatabase

    /// One group to check: a table, who asks, and the rows' primary-key values as text.
    struct Check: Sendable {
        var table: RealtimeTableMetadata
        var key: RealtimeClaims.AuthorizationKey
        var rowKeys: [[String]]
    }

    /// For each check, the indexes (into `rowKeys`) of the rows the group may see.
    ///
    /// Connection failures are thrown (the caller retries); a group's own SQL error means
    /// it sees nothing.
    func visibleRows(_ checks: [Check]) async throws -> [Set<Int>] {
        guard !checks.isEmpty else { return [] }
        let segments = checks.map { [Self.scope($0.key), Self.visibilityQuery($0)] }
        let results = try await database.pool.withConnection { try await $0.pipeline(segments: segments) }
        var visible: [Set<Int>] = []
        for (check, segment) in zip(checks, results) {
            switch segment.last {
            case .success(let result)?:
                visible.append(Set(try result.map { try $0.decode(Int.self, at: 0) - 1 }))
            case .failure(let error)?:
                if RealtimeDatabase.isTransient(error) { throw error }
                database.logger.warning(
                    "visibility check failed; nothing delivered for it",
                    metadata: ["realtime.table": "\(check.table.name)", "realtime.role": "\(check.key.role.rawValue)", "pg.error": "\(error)"])
                visible.append([])
            case nil:
                visible.append([])
            }
        }
        return visible
    }

    static func scope(_ key: RealtimeClaims.AuthorizationKey) -> PostgresQuery {
        "SELECT set_config('role', \(key.role.rawValue), true), set_config('request.jwt.claims', \(key.claimsJSON), true)"
    }

    static func visibilityQuery(_ check: Check) -> PostgresQuery {
        let keyColumns = check.table.primaryKey
        var query = PostgresQuery(unsafeSQL: "SELECT u.ord FROM unnest(")
        for (position, column) in keyColumns.enumerated() {
            let values = check.rowKeys.map { $0[position] }
            if position > 0 { query.sql += ", " }
            query.binds.append(values.postgresText)
            query.sql += "$\(query.binds.count)::\(column.sqlType)[]"
        }
        let aliases = keyColumns.indices.map { "k\($0)" }
        query.sql += ") WITH ORDINALITY AS u(\(aliases.joined(separator: ", ")), ord) WHERE EXISTS (SELECT 1 FROM "
        query.sql += check.table.quotedName + " AS t WHERE "
        query.sql += zip(keyColumns, aliases).map { "t.\($0.quotedName) = u.\($1)" }.joined(separator: " AND ")
        query.sql += ")"
        return query
    }
}
