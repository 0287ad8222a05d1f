import Postgres

/// What the statement of a request returns (one row): the total when counted, the page's
/// row count, the body as JSON text, and an insert's Location query.
struct StatementResult: Sendable {
    var total: Int?
    var pageTotal: Int
    var body: String
    var location: String?
}

/// Runs a request's statement the way PostgREST does: one transaction on the shared pool,
/// read-only for GET/HEAD, the scope statement first, then the statement; `check` may still
/// refuse the result (a single object that is not one row), which rolls everything back.
struct RESTExecutor: Sendable {
    let pool: PostgresPool

    func run(
        _ statement: PostgresQuery, scope: RequestScope, readOnly: Bool,
        check: (StatementResult) throws(RESTError) -> Void = { _ in }
    ) async throws(RESTError) -> StatementResult {
        do {
            return try await pool.withConnection { connection in
                try await connection.withTransaction { transaction in
                    if readOnly { try await transaction.query("SET TRANSACTION READ ONLY") }
                    try await transaction.query(scope.statement)
                    let rows = try await transaction.query(statement)
                    let row = rows[0]
                    let result = StatementResult(
                        total: try row.decode(Int?.self, at: 0), pageTotal: try row.decode(Int.self, at: 1),
                        body: try row.decode(String?.self, at: 2) ?? "", location: try row.decode(String?.self, at: 3))
                    try check(result)
                    return result
                }
            }
        } catch let error as RESTError {
            throw error
        } catch let error as PostgresError {
            throw RESTError(error, isAuthenticated: scope.isAuthenticated)
        } catch {
            throw RESTError(status: 500, code: "PGRSTX00", message: "Internal server error")
        }
    }
}
