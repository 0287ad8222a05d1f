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
///
/// Repositories send fixed SQL with bound values, so every statement a scope sends (its scope
/// statement included) is ``PostgresQuery/prepared``: parsed once per connection, and planned
/// once Postgres settles on a generic plan. Plans stay correct across users: the role is the
/// same for every user and the claims are read when the statement executes.
public struct DatabaseScope: Sendable {
    /// Who the statements run as.
    public let identity: DatabaseIdentity
    private let connection: PostgresConnection
    /// Where statements are logged, if anywhere (tests, benchmarks).
    public let recorder: QueryRecorder?
    /// How the statements travel: pipelined unless a benchmark compares other ways.
    public let sending: Sending

    /// Binds `connection` to `identity`. The caller owns the connection (e.g. a pool lease)
    /// and must not have a transaction open on it.
    public init(
        _ identity: DatabaseIdentity, on connection: PostgresConnection, recorder: QueryRecorder? = nil,
        sending: Sending = .pipelined
    ) {
        self.identity = identity
        self.connection = connection
        self.recorder = recorder
        self.sending = sending
    }

    /// A user's scope: role `authenticated`, `auth.uid()` = `userId`.
    public static func user(
        _ userId: UUID, on connection: PostgresConnection, recorder: QueryRecorder? = nil, sending: Sending = .pipelined
    ) -> DatabaseScope {
        DatabaseScope(.user(userId), on: connection, recorder: recorder, sending: sending)
    }

    /// The service-role scope (bypasses RLS), for admin work.
    public static func serviceRole(
        on connection: PostgresConnection, recorder: QueryRecorder? = nil, sending: Sending = .pipelined
    ) -> DatabaseScope {
        DatabaseScope(.serviceRole, on: connection, recorder: recorder, sending: sending)
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
        try await run(segments: segments, whileWaiting: {}, file: file, line: line).results
    }

    /// ``run(segments:file:line:)``, running `work` while the answers are on the way (see
    /// `PostgresConnection.pipeline(segments:whileWaiting:)`).
    public func run<Work: Sendable>(
        segments: [[PostgresQuery]], whileWaiting work: @Sendable () -> Work, file: String = #fileID, line: Int = #line
    ) async throws -> (results: [[Result<PostgresResult, PostgresError>]], work: Work) {
        let scoped = segments.map { [scopeStatement.prepared] + $0.map(\.prepared) }
        recorder?.record(roundTrip: scoped)
        let (results, done) = try await send(scoped, whileWaiting: work, file: file, line: line)
        return (try Self.unscoped(results), done)
    }

    /// Runs one statement in a scoped transaction (one round trip), running `work` while its answer is on the way.
    public func query<Work: Sendable>(
        _ query: PostgresQuery, whileWaiting work: @Sendable () -> Work, file: String = #fileID, line: Int = #line
    ) async throws -> (result: PostgresResult, work: Work) {
        let (results, done) = try await run(segments: [[query]], whileWaiting: work, file: file, line: line)
        return (try results[0][0].get(), done)
    }

    /// The queries' own results: the scope statement's dropped (its failure thrown), indexes in errors counted without it.
    private static func unscoped(
        _ results: [[Result<PostgresResult, PostgresError>]]
    ) throws -> [[Result<PostgresResult, PostgresError>]] {
        try results.map { segment in
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

    /// Sends scoped segments as `sending` says; each segment's results, as a pipeline returns them,
    /// and what `work` made while they were on the way.
    private func send<Work: Sendable>(_ segments: [[PostgresQuery]], whileWaiting work: @Sendable () -> Work, file: String, line: Int)
        async throws -> (results: [[Result<PostgresResult, PostgresError>]], work: Work)
    {
        var results: [[Result<PostgresResult, PostgresError>]] = []
        switch sending {
        case .pipelined:
            return try await connection.pipeline(segments: segments, whileWaiting: work, file: file, line: line)
        case .segmentBySegment:
            // The ways benchmarks compare send segment by segment: nothing to overlap.
            let done = work()
            for segment in segments {
                results += try await connection.pipeline(segments: [segment], file: file, line: line)
            }
            return (results, done)
        case .statementByStatement:
            let done = work()
            for segment in segments {
                results.append(try await sendUnpipelined(segment, file: file, line: line))
            }
            return (results, done)
        }
    }

    /// One segment as its own transaction, statement by statement; a failure aborts the rest, as in a pipeline.
    private func sendUnpipelined(_ segment: [PostgresQuery], file: String, line: Int)
        async throws -> [Result<PostgresResult, PostgresError>]
    {
        var results: [Result<PostgresResult, PostgresError>] = []
        do {
            try await connection.withTransaction(file: file, line: line) { transaction in
                for query in segment {
                    results.append(.success(try await transaction.query(query, file: file, line: line)))
                }
            }
        } catch var error as PostgresError {
            let failed = results.count
            error.statementIndex = failed
            results.append(.failure(error))
            while results.count < segment.count {
                var aborted = PostgresError(
                    code: .pipelineAborted, message: "skipped: an earlier statement of its transaction failed", file: file,
                    line: line)
                aborted.statementIndex = results.count
                aborted.failedStatementIndex = failed
                results.append(.failure(aborted))
            }
        }
        return results
    }
}
