extension PostgresQuery {
    /// The statement that opens a request's scope inside a transaction, as PostgREST does:
    /// `SET LOCAL ROLE` through `set_config('role', …, true)`, the JWT's claims as
    /// `request.jwt.claims`, the role's own `statement_timeout` (set on the role, migration 0013:
    /// anon 3 s, authenticated 8 s; a database's own setting wins; see ``RoleTimeout``), then any further
    /// transaction-local `settings` (`request.method`, `request.path`, `request.headers`, …).
    ///
    /// ```swift
    /// let scope = PostgresQuery.requestScope(role: "authenticated", claimsJSON: #"{"sub":"…","role":"authenticated"}"#)
    /// ```
    /// Every value is bound, so claims from a token can never change the SQL. The settings
    /// end with the transaction. This is the one place the scope statement is written.
    public static func requestScope(
        role: String, claimsJSON: String, timeout: RoleTimeout = .lookedUp, settings: [(name: String, value: String)] = []
    ) -> PostgresQuery {
        var binds: [String?] = [role, claimsJSON]
        binds.reserveCapacity(3 + settings.count * 2)
        let shape: ScopeShape
        switch timeout {
        case .lookedUp:
            binds.append(role)
            shape = .lookedUp
        case .known(let value?):
            binds.append(value)
            shape = .bound
        case .known(nil):
            shape = .sessions
        }
        for setting in settings {
            binds.append(setting.name)
            binds.append(setting.value)
        }
        // The text depends only on the shape and how many settings there are: built once per pair.
        let sql = settings.count < 12 ? scopeTexts[shape.rawValue][settings.count] : scopeText(shape, settingCount: settings.count)
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// Where a request's `statement_timeout` comes from.
    public enum RoleTimeout: Sendable, Hashable {
        /// Read from the catalog (~20 µs) by the scope statement itself, so an ALTER ROLE applies
        /// to the next request; a role without one keeps the session's.
        case lookedUp
        /// Already known (REST reads every role's at schema cache load, as PostgREST does):
        /// the role's own, or nil for none (the session's stays).
        case known(String?)
    }

    private enum ScopeShape: Int, CaseIterable {
        case lookedUp, bound, sessions
    }

    /// The scope statement's text per shape, for 0…11 further settings (REST sends 5 or 6, and
    /// the role's own).
    private static let scopeTexts: [[String]] = ScopeShape.allCases.map { shape in (0..<12).map { scopeText(shape, settingCount: $0) } }

    private static func scopeText(_ shape: ScopeShape, settingCount: Int) -> String {
        var sql = "SELECT set_config('role', $1, true), set_config('request.jwt.claims', $2, true)"
        var next = 3
        switch shape {
        case .lookedUp:
            sql += """
                , set_config('statement_timeout', coalesce((\
                SELECT pg_catalog.substr(setting, 19) FROM pg_catalog.pg_db_role_setting s, pg_catalog.unnest(s.setconfig) AS setting \
                WHERE s.setrole = pg_catalog.to_regrole($3) AND setting LIKE 'statement\\_timeout=%' \
                AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database())) \
                ORDER BY s.setdatabase DESC LIMIT 1), pg_catalog.current_setting('statement_timeout')), true)
                """
            next = 4
        case .bound:
            sql += ", set_config('statement_timeout', $3, true)"
            next = 4
        case .sessions:
            break
        }
        for index in 0..<settingCount {
            sql += ", set_config($\(next + index * 2), $\(next + 1 + index * 2), true)"
        }
        return sql
    }
}
