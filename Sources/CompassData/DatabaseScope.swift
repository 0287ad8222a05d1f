import Foundation
import Postgres

/// A connection bound to one identity: the only way repositories reach the database.
///
/// ```swift
/// let scope = DatabaseScope(.user(sofia), on: connection)
/// let feed = try await FeedRepository(scope: scope).load()
/// ```
/// Every call runs its statements the way PostgREST runs a request: one implicit
/// transaction (pipeline segment, closed by its own sync) that starts with
/// `set_config('role', …, true)` and `set_config('request.jwt.claims', …, true)`, so RLS
/// is the access boundary and the settings end with the transaction. The scope
/// statement travels in the same pipeline as the queries: no extra round trip.
/// The connection stays private, so no repository can query outside a scope.
public struct DatabaseScope: Sendable {
    /// Who the statements run as.
    public let identity: DatabaseIdentity
    private let connection: PostgresConnection
    /// Where statements are logged, if anywhere (tests, benchmarks).
    public let recorder: QueryRecorder?

    /// Binds `connection` to `identity`. The caller owns the connection (e.g. a pool lease)
    /// and must not have a transaction open on it.
    public init(_ identity: DatabaseIdentity, on connection: PostgresConnection, recorder: QueryRecorder? = nil) {
        self.identity = identity
        self.connection = connection
        self.recorder = recorder
    }

    /// A user's scope: role `authenticated`, `auth.uid()` = `userId`.
    public static func user(
        _ userId: UUID, on connection: PostgresConnection, recorder: QueryRecorder? = nil
    ) -> DatabaseScope {
        DatabaseScope(.user(userId), on: connection, recorder: recorder)
    }

    /// The service-role scope (bypasses RLS), for admin work.
    public static func serviceRole(on connection: PostgresConnection, recorder: QueryRecorder? = nil) -> DatabaseScope {
        DatabaseScope(.serviceRole, on: connection, recorder: recorder)
    }

    /// The statement that opens the scope inside a transaction.
    public var scopeStatement: PostgresQuery {
        .requestScope(role: identity.roleName, claimsJSON: identity.claimsJSON)
    }

    /// Runs independent transactions in one round trip; each segment is scoped and fails alone.
    ///
    /// The result for segment `k` holds one entry per query of segment `k`. A failure of
    /// the scope statement itself (e.g. the login role may not switch roles) is thrown.
    public func run(segments: [[PostgresQuery]], file: String = #fileID, line: Int = #line)
        async throws -> [[Result<PostgresResult, PostgresError>]]
    {
        let scoped = segments.map { [scopeStatement] + $0 }
        recorder?.record(roundTrip: segments.flatMap { $0.map(\.sql) })
        let results = try await connection.pipeline(segments: scoped, file: file, line: line)
        return try results.map { segment in
            if case .failure(let error) = segment.first { throw error }
            return segment.dropFirst().map { result in
                result.mapError { error in
                    var error = error
                    error.statementIndex = error.statementIndex.map { $0 - 1 }
                    error.failedStatementIndex = error.failedStatementIndex.map { $0 - 1 }
                    return error
                }
            }
        }
    }

    /// Runs `queries` as one scoped transaction in one round trip; throws the first failure.
    @discardableResult
    public func run(_ queries: [PostgresQuery], file: String = #fileID, line: Int = #line) async throws -> [PostgresResult] {
        guard !queries.isEmpty else { return [] }
        return try await run(segments: [queries], file: file, line: line)[0].map { try $0.get() }
    }

    /// Runs one statement in a scoped transaction (one round trip).
    @discardableResult
    public func query(_ query: PostgresQuery, file: String = #fileID, line: Int = #line) async throws -> PostgresResult {
        try await run([query], file: file, line: line)[0]
    }

    /// Round trips made so far on the underlying connection (for tests and benchmarks).
    public var roundTrips: Int {
        get async { await connection.roundTrips }
    }
}
