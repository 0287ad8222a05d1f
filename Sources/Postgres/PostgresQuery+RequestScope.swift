extension PostgresQuery {
    /// The statement that opens a request's scope inside a transaction, as PostgREST does:
    /// `SET LOCAL ROLE` through `set_config('role', …, true)`, the JWT's claims as
    /// `request.jwt.claims`, the role's own `statement_timeout` (set on the role, migration 0013:
    /// anon 3 s, authenticated 8 s; a database's own setting wins), then any further
    /// transaction-local `settings` (`request.method`, `request.path`, `request.headers`, …).
    ///
    /// ```swift
    /// let scope = PostgresQuery.requestScope(role: "authenticated", claimsJSON: #"{"sub":"…","role":"authenticated"}"#)
    /// ```
    /// Every value is bound, so claims from a token can never change the SQL. The settings
    /// end with the transaction. This is the one place the scope statement is written.
    public static func requestScope(
        role: String, claimsJSON: String, settings: [(name: String, value: String)] = []
    ) -> PostgresQuery {
        // The timeout is read from the catalog (~20 µs) rather than cached, so an ALTER ROLE
        // applies to the next request; a role without one keeps the session's.
        var binds: [String?] = [role, claimsJSON, role]
        binds.reserveCapacity(3 + settings.count * 2)
        for setting in settings {
            binds.append(setting.name)
            binds.append(setting.value)
        }
        // The text depends only on how many settings there are: built once per count.
        let sql = settings.count < scopeTexts.count ? scopeTexts[settings.count] : scopeText(settingCount: settings.count)
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// The scope statement's text for 0…7 further settings (REST sends 5 or 6).
    private static let scopeTexts: [String] = (0..<8).map { scopeText(settingCount: $0) }

    private static func scopeText(settingCount: Int) -> String {
        var sql = """
            SELECT set_config('role', $1, true), set_config('request.jwt.claims', $2, true), \
            set_config('statement_timeout', coalesce((\
            SELECT pg_catalog.substr(setting, 19) FROM pg_catalog.pg_db_role_setting s, pg_catalog.unnest(s.setconfig) AS setting \
            WHERE s.setrole = pg_catalog.to_regrole($3) AND setting LIKE 'statement\\_timeout=%' \
            AND s.setdatabase IN (0, (SELECT d.oid FROM pg_catalog.pg_database d WHERE d.datname = pg_catalog.current_database())) \
            ORDER BY s.setdatabase DESC LIMIT 1), pg_catalog.current_setting('statement_timeout')), true)
            """
        for index in 0..<settingCount {
            sql += ", set_config($\(4 + index * 2), $\(5 + index * 2), true)"
        }
        return sql
    }
}
