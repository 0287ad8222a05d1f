/// Besides task cancellation, what cancels a running statement on the server.
///
/// ```swift
/// try await PostgresCancellation.$callerHasLeft.withValue({ client.hasLeft }) {
///     try await pool.withConnection { try await $0.query(slowQuery) }   // cancelled once the client is gone
/// }
/// ```
/// The connection polls it every 100 ms while it waits for a result, as it polls `Task.isCancelled`,
/// and sends libpq's cancel request when it turns true (the statement then fails with 57014).
public enum PostgresCancellation {
    /// True once whoever waits for the statement's result has gone (an HTTP client that disconnected).
    @TaskLocal public static var callerHasLeft: (@Sendable () -> Bool)?
}
