/// `catch` by code, as GRDB's `DatabaseError ~=` allows:
///
/// ```swift
/// do { try await connection.query(…) }
/// catch SQLState.uniqueViolation { … }
/// catch PostgresError.Code.poolTimeout { … }
/// ```
/// A ``PostgresTransactionError`` matches by the error that failed the transaction (its
/// body's or COMMIT's), never by a ROLLBACK that failed afterwards.
extension SQLState {
    /// True when `error` is a server error with this SQLSTATE.
    public static func ~= (pattern: SQLState, error: any Error) -> Bool {
        PostgresError.primary(of: error)?.sqlState == pattern
    }
}

extension PostgresError.Code {
    /// True when `error` is a ``PostgresError`` of this kind.
    public static func ~= (pattern: PostgresError.Code, error: any Error) -> Bool {
        PostgresError.primary(of: error)?.code == pattern
    }
}

extension PostgresError {
    /// The client error `error` is, or that failed the transaction `error` reports.
    static func primary(of error: any Error) -> PostgresError? {
        switch error {
        case let error as PostgresError: return error
        case let error as PostgresTransactionError: return error.cause.flatMap(primary(of:))
        default: return nil
        }
    }
}
