/// Whoever waits for a statement's result, as far as cancelling it goes: an HTTP client's
/// connection, say, which the server marks as left when the client hangs up.
public protocol PostgresCaller: AnyObject, Sendable {
    /// True once the caller has gone; its running statement is then cancelled on the server.
    var hasLeft: Bool { get }
}

/// Besides task cancellation, what cancels a running statement on the server.
///
/// ```swift
/// try await PostgresCancellation.$caller.withValue(clientConnection) {
///     try await pool.withConnection { try await $0.query(slowQuery) }   // cancelled once the client is gone
/// }
/// ```
/// The connection polls it every 100 ms while it waits for a result, as it polls `Task.isCancelled`,
/// and sends libpq's cancel request once the caller has left (the statement then fails with 57014).
public enum PostgresCancellation {
    /// The caller of the statements run in this task.
    @TaskLocal public static var caller: (any PostgresCaller)?
}
