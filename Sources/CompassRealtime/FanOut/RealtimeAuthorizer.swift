import CompassTokens
import Postgres

import Synchronization

/// Asks Postgres which rows a set of subscribers may see, all in one round trip.
///
/// Each check is one (table, role + claims) group with the keys of the rows to test. The
/// usual path is one statement for every group, `realtime.visible_rows($1)` (migrations
/// 0007, 0009, 0030 and 0031): many subscribers of a table whose policies only read the
/// claims are decided in one query, the others per group, switching role and claims the way
/// PostgREST does. If that call fails (the migration is missing, a policy
/// raises), the batch is checked again with one pipeline segment per group — its own
/// implicit transaction, closed by its own sync — so one group's failure fails only it:
///
/// ```sql
/// SELECT set_config('role', $1, true), set_config('request.jwt.claims', $2, true)
/// SELECT u.ord FROM unnest($1::uuid[]) WITH ORDINALITY AS u(k0, ord)
///  CROSS JOIN LATERAL (SELECT FROM "public"."interactions" AS t WHERE t."id" = u.k0 LIMIT 1) AS found
/// ```
/// Either way RLS policies decide, with the subscriber's claims, exactly as for a PostgREST read.
final class RealtimeAuthorizer: Sendable {
    let database: RealtimeDatabase
    let metrics: RealtimeMetrics
    /// Cleared once `realtime.visible_rows` turns out to be missing.
    private let functionAvailable = Mutex(true)
    private let claimObjects = ClaimsObjectTexts()

    init(database: RealtimeDatabase, metrics: RealtimeMetrics) {
        self.database = database
        self.metrics = metrics
    }

    /// One group to check: a table, who asks, and the rows' primary-key values as text.
    typealias Check = VisibilityCheck

    /// For each check, the indexes (into `rowKeys`) of the rows the group may see.
    ///
    /// Connection failures are thrown (the caller retries); a group's own SQL error means
    /// it sees nothing.
    func visibleRows(_ checks: [Check]) async throws -> [Set<Int>] {
        guard !checks.isEmpty else { return [] }
        if functionAvailable.withLock({ $0 }) {
            do {
                return try await visibleRowsInOneStatement(checks)
            } catch SQLState.undefinedFunction {
                // Migration 0007 is not applied: stop trying the function.
                functionAvailable.withLock { $0 = false }
                database.logger.warning("realtime.visible_rows is missing; checking group by group from now on")
            } catch let error as PostgresError where !RealtimeDatabase.isTransient(error) {
                database.logger.warning(
                    "realtime.visible_rows failed; checking this batch group by group", metadata: ["pg.error": "\(error)"])
            }
        }
        return try await visibleRowsBySegment(checks)
    }

    /// All groups in one call of `realtime.visible_rows`.
    func visibleRowsInOneStatement(_ checks: [Check]) async throws -> [Set<Int>] {
        metrics.visibilityChecks.record(Double(checks.count))
        let checksJSON = PostgresJSON(text: Self.checksJSON(checks, claimObjects: claimObjects))
        let result = try await database.pool.withConnection { connection in
            let results = try await connection.pipeline(segments: [[
                RealtimeDatabase.serviceRoleScope,
                PostgresQuery("SELECT check_index, row_index FROM realtime.visible_rows(\(checksJSON)::jsonb)").prepared,
            ]])[0]
            guard case .failure(let error) = results[1] else { return try results[1].get() }
            if !RealtimeDatabase.isTransient(error) {
                // A stale per-table statement (the table changed) must not fail the next call too.
                _ = try? await connection.deallocateAllPreparedStatements()
            }
            throw error
        }
        var visible = Array(repeating: Set<Int>(), count: checks.count)
        for row in result {
            let check = try row.decode(Int.self, at: 0)
            let index = try row.decode(Int.self, at: 1)
            if visible.indices.contains(check) { visible[check].insert(index) }
        }
        return visible
    }

    /// The argument of `realtime.visible_rows`: per check its role, claims (the token's JSON
    /// object as it is, or a string when the text is not one object), relation and the rows'
    /// keys as arrays of text. Written straight to text: this runs for every change.
    static func checksJSON(_ checks: [Check], claimObjects: ClaimsObjectTexts) -> String {
        var output = "["
        for (index, check) in checks.enumerated() {
            output += index == 0 ? #"{"role":""# : #",{"role":""#
            output += check.key.role.rawValue
            output += #"","claims":"#
            if claimObjects.isObject(check.key.claimsJSON) {
                output += check.key.claimsJSON
            } else {
                RealtimeJSON.writeQuoted(check.key.claimsJSON, to: &output)
            }
            output += #","relation":"#
            RealtimeJSON.writeQuoted(check.table.quotedName, to: &output)
            output += #","keys":["#
            for (rowIndex, key) in check.rowKeys.enumerated() {
                output += rowIndex == 0 ? "[" : ",["
                for (valueIndex, value) in key.enumerated() {
                    if valueIndex > 0 { output += "," }
                    RealtimeJSON.writeQuoted(value, to: &output)
                }
                output += "]"
            }
            output += "]}"
        }
        return output + "]"
    }

    /// One pipeline segment per group.
    func visibleRowsBySegment(_ checks: [Check]) async throws -> [Set<Int>] {
        let segments = checks.map { [Self.scope($0.key).prepared, Self.visibilityQuery($0).prepared] }
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

    static func scope(_ key: AccessClaims.AuthorizationKey) -> PostgresQuery {
        .requestScope(role: key.role.rawValue, claimsJSON: key.claimsJSON)
    }

    /// `SELECT u.ord FROM unnest($1::type[], …) WITH ORDINALITY … CROSS JOIN LATERAL (…)`: the 1-based rows visible.
    ///
    /// Names and types are the catalog's own (`quote_ident`, `format_type`); every key is a bind.
    static func visibilityQuery(_ check: Check) -> PostgresQuery {
        let keyColumns = check.table.primaryKey
        var arrays: PostgresQuery = ""
        for (position, column) in keyColumns.enumerated() {
            let values = check.rowKeys.map { $0[position] }
            let array: PostgresQuery = "\(values)::\(unescaped: column.sqlType)[]"
            arrays = position == 0 ? array : "\(arrays), \(array)"
        }
        let aliases = keyColumns.indices.map { "k\($0)" }
        let keysMatch = zip(keyColumns, aliases).map { "t.\($0.quotedName) = u.\($1)" }.joined(separator: " AND ")
        // A LATERAL probe per key, LIMIT 1: always a primary-key lookup with the policy as a
        // filter (EXISTS could become a hash join over every row the subscriber may see).
        return """
            SELECT u.ord FROM unnest(\(arrays)) WITH ORDINALITY AS u(\(unescaped: aliases.joined(separator: ", ")), ord) \
            CROSS JOIN LATERAL (SELECT FROM \(unescaped: check.table.quotedName) AS t WHERE \(unescaped: keysMatch) LIMIT 1) AS found
            """
    }
}
