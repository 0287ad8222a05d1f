/// Transactions and savepoints.
extension PostgresConnection {
    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws.
    ///
    /// ```swift
    /// try await connection.withTransaction { tx in try await tx.query("…") }
    /// ```
    /// The body's error comes back unchanged when ROLLBACK succeeds; a failed COMMIT, or a
    /// failed ROLLBACK after the body threw, is a ``PostgresTransactionError`` keeping each
    /// cause. The caller must own the connection for the duration (e.g. a pool lease).
    @discardableResult
    public nonisolated func withTransaction<T>(
        file: String = #fileID, line: Int = #line,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await transaction(
            begin: "BEGIN", commit: "COMMIT", rollback: "ROLLBACK", file: file, line: line, body)
    }

    /// Runs `body` inside a savepoint of the current transaction; a throw rolls back only the savepoint.
    @discardableResult
    public nonisolated func withSavepoint<T>(
        named name: String = "compass_savepoint",
        file: String = #fileID, line: Int = #line,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let identifier = try await escapeIdentifier(name)
        return try await transaction(
            begin: PostgresQuery(unsafeSQL: "SAVEPOINT \(identifier)"),
            commit: PostgresQuery(unsafeSQL: "RELEASE SAVEPOINT \(identifier)"),
            rollback: PostgresQuery(unsafeSQL: "ROLLBACK TO SAVEPOINT \(identifier)"), file: file, line: line, body)
    }

    /// BEGIN, body, then COMMIT or ROLLBACK, keeping every step's error apart.
    private nonisolated func transaction<T>(
        begin: PostgresQuery, commit: PostgresQuery, rollback: PostgresQuery, file: String, line: Int,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await query(begin, file: file, line: line)
        let value: T
        do {
            value = try await body(self)
        } catch {
            do {
                try await query(rollback, file: file, line: line)
            } catch let rollbackError {
                // The connection is still inside the failed transaction: the pool will not reuse it.
                throw PostgresTransactionError(bodyError: error, rollbackError: rollbackError, file: file, line: line)
            }
            throw error
        }
        do {
            try await query(commit, file: file, line: line)
        } catch {
            throw PostgresTransactionError(commitError: error, file: file, line: line)
        }
        return value
    }
}
