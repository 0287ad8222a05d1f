import CompassData
import Logging
import Postgres

/// The worker's database access: a small pool, the service-role scope, and retries.
///
/// The worker logs in as `authenticator` (or a superuser in development) and switches
/// roles per transaction with `set_config('role', …, true)`, the way PostgREST does.
public struct RealtimeDatabase: Sendable {
    /// The pool all worker queries (polls, catalog, authorisation, pruning) go through.
    public let pool: PostgresPool
    let logger: Logger

    /// Makes the pool; it leases connections once it runs (the worker's `ServiceGroup` runs it).
    public init(configuration: PostgresConfiguration, maximumConnections: Int = 4, logger: Logger) {
        self.pool = PostgresPool(
            configuration: configuration, maximumConnections: maximumConnections, checkoutTimeout: .seconds(30),
            logger: logger)
        self.logger = logger
    }

    /// The statement that opens a service-role transaction (BYPASSRLS; may read `realtime.*`).
    static let serviceRoleScope: PostgresQuery = PostgresQuery.requestScope(
        role: DatabaseIdentity.serviceRole.roleName, claimsJSON: DatabaseIdentity.serviceRole.claimsJSON
    ).prepared

    /// Runs `queries` as the service role in one implicit transaction, one round trip.
    ///
    /// The worker's statements are fixed SQL sent over and over (polls, pruning), so they are
    /// ``PostgresQuery/prepared``.
    /// With `timeout`, the queries are cancelled (57014) if they run longer.
    public func asServiceRole(_ queries: [PostgresQuery], timeout: Duration? = nil) async throws -> [PostgresResult] {
        var opening = [Self.serviceRoleScope]
        if let timeout {
            let milliseconds = String(max(1, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
            opening.append(("SELECT set_config('statement_timeout', \(milliseconds), true)" as PostgresQuery).prepared)
        }
        return try await pool.withConnection { connection in
            let results = try await connection.pipeline(segments: [opening + queries.map(\.prepared)])[0]
            return try results.dropFirst(opening.count).map { try $0.get() }
        }
    }

    /// Runs `operation` until it succeeds, waiting with backoff while the database is unreachable
    /// or not migrated yet (a worker started before `compass migrate` waits for it, and `/ready`
    /// says why, rather than exiting).
    ///
    /// Only connection-level failures and missing schema objects are retried; other server errors
    /// (a bad query) are rethrown.
    /// Cancellation ends the wait with `CancellationError`.
    public func retryingWhileUnavailable<T: Sendable>(
        _ what: String, _ operation: () async throws -> T
    ) async throws -> T {
        var delay = Duration.milliseconds(50)
        while true {
            do {
                return try await operation()
            } catch let error as PostgresError where Self.isTransient(error) || Self.isNotMigrated(error) {
                try Task.checkCancellation()
                let problem = Self.isNotMigrated(error) ? "database not migrated yet (run: compass migrate), retrying" : "database unavailable, retrying"
                logger.warning("\(problem)", metadata: ["realtime.work": "\(what)", "pg.error": "\(error)"])
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(5))
            }
        }
    }

    /// True when a table, function or schema the realtime migrations create is missing.
    static func isNotMigrated(_ error: PostgresError) -> Bool {
        [SQLState.undefinedTable, .undefinedFunction, SQLState(rawValue: "3F000")].contains(error.sqlState)
    }

    /// True for failures of the link rather than of the statement.
    static func isTransient(_ error: PostgresError) -> Bool {
        switch error.code {
        case .connectionLost, .connectionFailed, .closed, .poolTimeout: return true
        default:
            guard let state = error.sqlState?.rawValue else { return false }
            // 08 connection exception, 57 operator intervention (terminated backend), 53 resources.
            return state.hasPrefix("08") || state.hasPrefix("57") || state.hasPrefix("53")
        }
    }
}
