import CLibPQ

extension PostgresConnection {
    /// Sends every statement, one sync, and reads every result: one round trip.
    ///
    /// Results come back in order. When statement `k` fails, its entry holds the
    /// server error (with `statementIndex == k`) and every later entry holds a
    /// `.pipelineAborted` error naming `k`: Postgres skipped them.
    public func pipeline(
        _ queries: [PostgresQuery], file: String = #fileID, line: Int = #line
    ) async throws(PostgresError) -> [Result<PostgresResult, PostgresError>] {
        try await pipeline(segments: [queries], file: file, line: line).first ?? []
    }

    /// Like ``pipeline(_:file:line:)`` but throws the first failure.
    public func pipelineResults(
        _ queries: [PostgresQuery], file: String = #fileID, line: Int = #line
    ) async throws(PostgresError) -> [PostgresResult] {
        try await pipeline(queries, file: file, line: line).map { result throws(PostgresError) in try result.get() }
    }

    /// Sends several segments, each ended by its own sync, in one round trip.
    ///
    /// Each segment is its own implicit transaction: a failure skips the rest of its
    /// segment only, so independent reads can fail independently and still share
    /// one round trip. Indexes in errors count from the start of the segment.
    ///
    /// ``PostgresQuery/prepared`` statements run by name; one this connection has not prepared
    /// yet is prepared right before its first run, in the same segment (so with that segment's
    /// role), and a failure to prepare it is that statement's error. A segment that failed only
    /// because a cached statement was gone or stale (someone ran `DISCARD ALL`, a table's columns
    /// changed) rolled back, so it is sent once more, freshly prepared, when the pipeline began and
    /// ended outside any transaction; otherwise its error says ``PostgresError/isStalePreparedStatement``.
    ///
    /// A statement whose text or values hold a NUL byte makes the whole call throw SQLSTATE 22021
    /// before anything is sent (see `PostgresQuery+NULBytes.swift`), so nothing is half written.
    public func pipeline(
        segments: [[PostgresQuery]], file: String = #fileID, line: Int = #line
    ) async throws(PostgresError) -> [[Result<PostgresResult, PostgresError>]] {
        try await pipeline(segments: segments, whileWaiting: {}, file: file, line: line).results
    }

    /// ``pipeline(segments:file:line:)``, running `work` once the statements are on their way
    /// and before their answers are read, so client work that does not need them overlaps the
    /// round trip instead of following it. `work` runs exactly once, also when there is nothing
    /// to send; not when the pipeline fails before sending.
    public func pipeline<Work: Sendable>(
        segments: [[PostgresQuery]], whileWaiting work: @Sendable () -> Work, file: String = #fileID, line: Int = #line
    ) async throws(PostgresError) -> (results: [[Result<PostgresResult, PostgresError>]], work: Work) {
        try await exclusively { () throws(PostgresError) in
            var done: Work?
            let results = try await runPipelineRetryingStale(segments: segments, afterSending: { done = work() }, file: file, line: line)
            return (results, done ?? work())
        }
    }

    /// ``pipeline(segments:file:line:)`` for an operation that already holds the connection;
    /// `afterSending` runs once the first attempt's statements are flushed.
    func runPipelineRetryingStale(
        segments: [[PostgresQuery]], afterSending: () -> Void = {}, file: String, line: Int
    ) async throws(PostgresError) -> [[Result<PostgresResult, PostgresError>]] {
        let startedIdle = handle.map { PQtransactionStatus($0) == PQTRANS_IDLE } ?? false
        var (results, stale) = try await runPipeline(segments, afterSending: afterSending, file: file, line: line)
        guard !stale.isEmpty, startedIdle, let handle, PQtransactionStatus(handle) == PQTRANS_IDLE else { return results }
        let retried = try await runPipeline(stale.map { segments[$0] }, file: file, line: line).results
        for (index, segmentResults) in zip(stale, retried) { results[index] = segmentResults }
        return results
    }

    /// One round trip: evicted statements' deallocations, then the segments. Also returns the
    /// indexes of the segments that failed on a missing or stale cached statement.
    private func runPipeline(
        _ segments: [[PostgresQuery]], afterSending: () -> Void = {}, file: String, line: Int
    ) async throws(PostgresError) -> (results: [[Result<PostgresResult, PostgresError>]], stale: [Int]) {
        guard let first = segments.lazy.flatMap({ $0 }).first else { return (segments.map { _ in [] }, []) }
        // Before pipeline mode: a refusal mid-way would leave commands sent without their sync.
        try segments.refuseNULBytes(file: file, line: line)
        let connection = try requireOpen(first, file: file, line: line)
        let idle = PQtransactionStatus(connection) == PQTRANS_IDLE
        guard PQenterPipelineMode(connection) == 1 else { throw connectionError(connection, first, file, line) }
        var sent = false
        defer {
            PQexitPipelineMode(connection)
            // Commands went out without their sync: the server would never answer the next one.
            if !sent { abandon() }
        }
        let plan = statements.plan(segments, mayDeallocate: idle)
        roundTrips += 1
        // Each DEALLOCATE behind its own sync: one whose statement is already gone fails alone.
        let deallocations = plan.deallocations.map { PostgresQuery(unsafeSQL: "DEALLOCATE \($0)") }
        for query in deallocations {
            try send(query, on: connection, file: file, line: line)
            try sync(connection, first, file, line)
        }
        for (segment, steps) in zip(segments, plan.steps) {
            for (query, step) in zip(segment, steps) {
                if case .prepareAndRun(let name) = step {
                    guard PQsendPrepare(connection, name, query.sql, Int32(query.binds.count), nil) == 1 else {
                        throw connectionError(connection, query, file, line)
                    }
                }
                try send(query, as: step.name, on: connection, file: file, line: line)
            }
            try sync(connection, first, file, line)
        }
        try await flush(connection, query: first, file: file, line: line)
        sent = true
        afterSending()

        for query in deallocations {
            var none: Set<Int> = []
            _ = try await readSegment([query], steps: [.unnamed], unprepared: &none, on: connection, file: file, line: line)
        }
        // Statements prepared here whose preparation failed or was skipped: prepare them next time.
        var unprepared: Set<Int> = []
        var results: [[Result<PostgresResult, PostgresError>]] = []
        var stale: [Int] = []
        for (index, (segment, steps)) in zip(segments, plan.steps).enumerated() {
            unprepared.removeAll()
            var outcomes = try await readSegment(segment, steps: steps, unprepared: &unprepared, on: connection, file: file, line: line)
            for position in unprepared { statements.forget(segment[position].sql) }
            for (position, (query, step)) in zip(segment, steps).enumerated() {
                guard case .named = step, case .failure(var error) = outcomes[position], error.code == .server else { continue }
                // Gone (someone ran DEALLOCATE/DISCARD, so no cached name can be trusted), or its
                // result type changed (a table changed under it).
                if error.sqlState == .invalidSQLStatementName {
                    statements.discardAll()
                } else if error.sqlState == .featureNotSupported && error.routine == "RevalidateCachedQuery" {
                    statements.statementStale(query.sql)
                } else {
                    continue
                }
                error.isStalePreparedStatement = true
                outcomes[position] = .failure(error)
                if stale.last != index { stale.append(index) }
            }
            results.append(outcomes)
        }
        return (results, stale)
    }

    private func sync(_ connection: OpaquePointer, _ probe: PostgresQuery, _ file: String, _ line: Int) throws(PostgresError) {
        guard PQpipelineSync(connection) == 1 else { throw connectionError(connection, probe, file, line) }
    }

    /// Reads one segment's results (a prepared-here statement's preparation first) and its sync;
    /// adds to `unprepared` the positions whose preparation failed or was skipped.
    private func readSegment(
        _ queries: [PostgresQuery], steps: [PreparedStatementCache.Step], unprepared: inout Set<Int>,
        on connection: OpaquePointer, file: String, line: Int
    ) async throws(PostgresError) -> [Result<PostgresResult, PostgresError>] {
        var outcomes: [Result<PostgresResult, PostgresError>] = []
        var failedIndex: Int?
        for (index, (query, step)) in zip(queries, steps).enumerated() {
            var outcome: Result<PostgresResult, PostgresError>?
            if case .prepareAndRun = step {
                switch try await readPreparation(query, index: index, on: connection, file: file, line: line) {
                case .prepared:
                    break
                case .skipped:
                    unprepared.insert(index)
                    outcome = .failure(abortedError(query, index: index, failedIndex: failedIndex, file: file, line: line))
                case .refused(let error):
                    unprepared.insert(index)
                    outcome = .failure(error)
                    if failedIndex == nil { failedIndex = index }
                }
            }
            while let result = try await nextResult(connection, query: query, file: file, line: line) {
                defer { PQclear(result) }
                guard outcome == nil else { continue }
                if PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
                    outcome = .failure(abortedError(query, index: index, failedIndex: failedIndex, file: file, line: line))
                } else {
                    outcome = convert(result, query: query, file: file, line: line).mapError { error in
                        var error = error
                        error.statementIndex = index
                        return error
                    }
                    if case .failure = outcome, failedIndex == nil { failedIndex = index }
                }
            }
            outcomes.append(
                outcome ?? .failure(PostgresError(code: .unexpectedResult, message: "no result", query: query.sql)))
        }
        let probe = queries.first ?? PostgresQuery(unsafeSQL: "-- sync")
        guard let sync = try await nextResult(connection, query: probe, file: file, line: line),
            PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        else {
            throw PostgresError(code: .unexpectedResult, message: "pipeline ended without its sync", file: file, line: line)
        }
        PQclear(sync)
        return outcomes
    }

    /// What became of a statement's preparation.
    private enum Preparation {
        case prepared
        /// An earlier statement of the segment failed, so Postgres skipped it.
        case skipped
        /// The server's error (a syntax error, a missing table, …): the statement's own.
        case refused(PostgresError)
    }

    /// Reads the result of preparing `query`.
    private func readPreparation(
        _ query: PostgresQuery, index: Int, on connection: OpaquePointer, file: String, line: Int
    ) async throws(PostgresError) -> Preparation {
        var preparation = Preparation.prepared
        while let result = try await nextResult(connection, query: query, file: file, line: line) {
            defer { PQclear(result) }
            guard case .prepared = preparation else { continue }
            switch PQresultStatus(result) {
            case PGRES_COMMAND_OK:
                continue
            case PGRES_PIPELINE_ABORTED:
                preparation = .skipped
            default:
                if case .failure(var error) = convert(result, query: query, file: file, line: line) {
                    error.statementIndex = index
                    preparation = .refused(error)
                }
            }
        }
        return preparation
    }

    /// The error of a statement Postgres skipped because statement `failedIndex` of its segment failed.
    private func abortedError(
        _ query: PostgresQuery, index: Int, failedIndex: Int?, file: String, line: Int
    ) -> PostgresError {
        var error = PostgresError(
            code: .pipelineAborted, message: "skipped: statement \(failedIndex ?? -1) of the pipeline failed",
            query: query.sql, file: file, line: line)
        error.statementIndex = index
        error.failedStatementIndex = failedIndex
        return error
    }
}
