extension PostgresQuery {
    /// The statement that opens a request's scope inside a transaction, as PostgREST does:
    /// `SET LOCAL ROLE` through `set_config('role', …, true)`, the JWT's claims as
    /// `request.jwt.claims`, the role's own timeouts (`auth.apply_role_settings`, migration
    /// 0013: anon 3 s, authenticated 8 s), then any further transaction-local `settings`
    /// (`request.method`, `request.path`, `request.headers`, …).
    ///
    /// ```swift
    /// let scope = PostgresQuery.requestScope(role: "authenticated", claimsJSON: #"{"sub":"…","role":"authenticated"}"#)
    /// ```
    /// Every value is bound, so claims from a token can never change the SQL. The settings
    /// end with the transaction. This is the one place the scope statement is written.
    public static func requestScope(
        role: String, claimsJSON: String, settings: [(name: String, value: String)] = []
    ) -> PostgresQuery {
        var query: PostgresQuery =
            """
            SELECT set_config('role', \(role), true), set_config('request.jwt.claims', \(claimsJSON), true), \
            auth.apply_role_settings(\(role))
            """
        for setting in settings {
            query = "\(query), set_config(\(setting.name), \(setting.value), true)"
        }
        return query
    }
}
