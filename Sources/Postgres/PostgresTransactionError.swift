/// A transaction that failed in more than one place, or at COMMIT, with each cause kept apart.
///
/// `withTransaction` rethrows the body's own error unchanged when ROLLBACK succeeds. Anything
/// else — COMMIT failing after the body returned, or ROLLBACK failing after the body threw —
/// comes back as this error, so neither cause hides the other (postgres-nio's
/// `PostgresTransactionError` does the same). A failed BEGIN is thrown as it is: nothing
/// else ran. For savepoints, `commit` is RELEASE and `rollback` is ROLLBACK TO SAVEPOINT.
///
/// ```swift
/// catch let error as PostgresTransactionError where error.commitError != nil { … }
/// ```
public struct PostgresTransactionError: Error, Sendable, CustomStringConvertible {
    /// The body threw.
    public var bodyError: (any Error)?
    /// ROLLBACK failed after the body threw: the connection is left unusable and is not reused.
    public var rollbackError: (any Error)?
    /// COMMIT (or RELEASE) failed after the body returned: nothing was committed.
    public var commitError: (any Error)?
    /// The caller's file (`#fileID`).
    public var file: String
    /// The caller's line.
    public var line: Int

    /// Makes an error from the steps that failed.
    public init(
        bodyError: (any Error)? = nil, rollbackError: (any Error)? = nil,
        commitError: (any Error)? = nil, file: String = #fileID, line: Int = #line
    ) {
        self.bodyError = bodyError
        self.rollbackError = rollbackError
        self.commitError = commitError
        self.file = file
        self.line = line
    }

    /// The error that failed the transaction: the body's or COMMIT's.
    public var cause: (any Error)? { bodyError ?? commitError }

    public var description: String {
        var parts: [String] = []
        if let bodyError { parts.append("the transaction's body failed: \(bodyError)") }
        if let rollbackError { parts.append("ROLLBACK failed: \(rollbackError)") }
        if let commitError { parts.append("COMMIT failed: \(commitError)") }
        return "transaction failed (\(file):\(line)): " + parts.joined(separator: "; ")
    }
}
