/// Transactions and savepoints.
extension PostgresConnection {
    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it throws.
    ///
    /// ```swift
    /// try await connection.withTransaction { tx in try await tx.query("…") }
    /// ```
    /// The caller must own the connection for the duration (e.g. a pool lease).
    public nonisolated func withTransaction<T>(
        file: String = #fileID, line: Int = #line,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await query("BEGIN", file: file, line: line)
        let value: T
        do {
            value = try await body(self)
        } catch {
            await rollbackQuietly("ROLLBACK")
            throw error
        }
        try await query("COMMIT", file: file, line: line)
        return value
    }

    /// Runs `body` inside a savepoint of the current transaction; a throw rolls back only the savepoint.
    public nonisolated func withSavepoint<T>(
        named name: String = "compass_savepoint",
        file: String = #fileID, line: Int = #line,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let identifier = try await escapeIdentifier(name)
        try await query(PostgresQuery(unsafeSQL: "SAVEPOINT \(identifier)"), file: file, line: line)
        let value: T
        do {
            value = try await body(self)
        } catch {
            await rollbackQuietly("ROLLBACK TO SAVEPOINT \(identifier)")
            throw error
        }
        try await query(PostgresQuery(unsafeSQL: "RELEASE SAVEPOINT \(identifier)"), file: file, line: line)
        return value
    }

    /// Rolls back; a failure here leaves the connection non-reusable, which the pool notices.
    private func rollbackQuietly(_ sql: String) {
        do {
            try query(PostgresQuery(unsafeSQL: sql))
        } catch {
            logger.debug("rollback failed", metadata: ["pg.error": "\(error)"])
        }
    }
}
