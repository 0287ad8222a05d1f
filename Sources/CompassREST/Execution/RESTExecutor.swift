import Foundation
import Hummingbird
import Postgres

/// What the statement of a request returns (one row): the total when counted, the page's
/// row count, the body (JSON text, as Postgres sent it), and an insert's Location query (for a
/// PUT, whether it created its row: ``MutationQueryBuilder/createdMarker``).
struct StatementResult: Sendable {
    var total: Int?
    var pageTotal: Int
    /// The reply body's bytes, written to the response as they came from Postgres.
    var body: ByteBuffer
    var location: String?
    /// What the statement set with `response.headers` and `response.status`.
    var settings = ResponseSettings()
    /// For an upsert that merges duplicates, how many rows it inserted (nil otherwise).
    var inserted: Int?
}

/// Runs a request's statement the way PostgREST does: one transaction on the shared pool,
/// read-only for GET/HEAD, the scope statement first, then the statement; `check` may still
/// refuse the result (a single object that is not one row), which rolls everything back.
///
/// The transaction travels as one pipeline: a read is `BEGIN READ ONLY`, scope, statement and
/// `COMMIT` in one round trip (`check` has nothing to undo); a write waits for `check` before
/// its `COMMIT`, two round trips. All four are prepared per connection: the
/// statement's text depends only on the request's shape, its values are bound.
///
/// The statement withholds a body longer than `maximumReplyBytes` (see `SQLBuilder+Reply.swift`);
/// such a reply is refused here, before `check`, so a write that produced it is rolled back too.
struct RESTExecutor: Sendable {
    let pool: PostgresPool
    let maximumReplyBytes: Int

    /// Runs `statement` built from the schema cache of load `schemaGeneration` (see ``transaction(_:scope:readOnly:rollback:timing:_:)``).
    /// `estimate`, an `EXPLAIN (FORMAT JSON)` run after the statement in the same transaction (a
    /// read's `count=planned` or `estimated`), makes the total the planner's row estimate, or
    /// the larger of it and the count when the statement counted.
    func run(
        _ statement: PostgresQuery, schemaGeneration: Int, scope: RequestScope, readOnly: Bool, rollback: Bool = false,
        estimate: PostgresQuery? = nil, exactCountUpTo cap: Int? = nil, timing: ServerTiming? = nil, check: (StatementResult) throws(RESTError) -> Void = { _ in }
    ) async throws(RESTError) -> StatementResult {
        let statements = [Self.tagged(statement, schemaGeneration).prepared] + (estimate.map { [$0] } ?? [])
        return try await transaction(statements, scope: scope, readOnly: readOnly, rollback: rollback, timing: timing) { results in
            var result = try statementResult(try results[0].get())
            if estimate != nil, let planned = try Self.plannedRows(try results[1].get()) {
                // count=estimated: the larger of the count and the estimate, but the count
                // itself while it is within a cap (`cap`: db-max-rows), as PostgREST.
                if let total = result.total, let cap, total <= cap {
                    result.total = total
                } else {
                    result.total = max(result.total ?? planned, planned)
                }
            }
            try check(result)
            return result
        }
    }

    /// Runs `statement`, an `EXPLAIN` (``SQLBuilder/init(explaining:)``), in the transaction its
    /// request would have run in, ended the same way (an `ANALYZE` of a write commits unless the
    /// request rolls back, as in PostgREST), and returns the plan: `FORMAT JSON`'s one row or
    /// `FORMAT TEXT`'s lines, each followed by a newline, as PostgREST sends them.
    func explain(
        _ statement: PostgresQuery, schemaGeneration: Int, scope: RequestScope, readOnly: Bool, rollback: Bool, timing: ServerTiming?
    ) async throws(RESTError) -> ByteBuffer {
        // Not prepared: plans are asked for now and then, and each would hold a prepared statement.
        try await transaction([Self.tagged(statement, schemaGeneration)], scope: scope, readOnly: readOnly, rollback: rollback, timing: timing) { results in
            var plan = ByteBuffer()
            for row in try results[0].get() {
                plan.writeBytes(try row.bytes(at: 0) ?? [])
                plan.writeInteger(UInt8(ascii: "\n"))
            }
            return plan
        }
    }

    /// Opens `scope` in a read-only transaction and ends it: the pre-request function's verdict
    /// for a request that runs no statement of its own (the OpenAPI description).
    func open(_ scope: RequestScope, timing: ServerTiming?) async throws(RESTError) {
        try await transaction([], scope: scope, readOnly: true, rollback: false, timing: timing) { _ in () }
    }

    private static let checkDeferredConstraints = ("SET CONSTRAINTS ALL IMMEDIATE" as PostgresQuery).prepared

    /// `statement` marked with the schema cache's load number, so plans prepared before a schema
    /// reload (their parameter types inferred from the old columns) are never run again.
    private static func tagged(_ statement: PostgresQuery, _ schemaGeneration: Int) -> PostgresQuery {
        "\(unescaped: "/* schema \(schemaGeneration) */ ")\(statement)"
    }

    /// One request's transaction: `BEGIN` (read-only for `readOnly`), the scope (and the
    /// pre-request function: its failure is the request's, as in PostgREST), `statements`, then
    /// `finish` reads their results (in order) and may refuse them, which rolls everything back;
    /// else it ends as `rollback` says. A statement that was prepared but is gone or stale on the
    /// server fails before anything ran: the transaction is rolled back and sent once more.
    private func transaction<T>(
        _ statements: [PostgresQuery], scope: RequestScope, readOnly: Bool, rollback: Bool,
        timing: ServerTiming?, _ finish: ([Result<PostgresResult, PostgresError>]) throws -> T
    ) async throws(RESTError) -> T {
        timing?.mark(.plan)
        defer { timing?.mark(.transaction) }
        do {
            return try await pool.withConnection { connection in
                // Prepared like the rest, so Postgres does not parse and plan them anew per request.
                let end = (rollback ? "ROLLBACK" : "COMMIT" as PostgresQuery).prepared
                let begin = (readOnly ? "BEGIN READ ONLY" : "BEGIN" as PostgresQuery).prepared
                let opening = [begin] + scope.openingStatements
                var pipeline = opening + statements
                if readOnly { pipeline.append(end) }
                for attempt in 1...2 {
                    do {
                        let results = try await connection.pipeline(pipeline)
                        for result in results { _ = try result.get() }
                        let value = try finish(Array(results[opening.count..<(opening.count + statements.count)]))
                        if !readOnly, rollback {
                            // Deferred constraints are checked first, as PostgREST does, so a write that
                            // would fail at COMMIT fails the same way when it is rolled back.
                            _ = try await connection.pipelineResults([Self.checkDeferredConstraints, end])
                        } else if !readOnly {
                            try await connection.query(end)
                        }
                        return value
                    } catch {
                        // Still inside the failed (or refused) transaction: end it so the connection is reusable.
                        if await !connection.isReusable, await !connection.isClosed { _ = try? await connection.query("ROLLBACK") }
                        if attempt == 1, let failure = error as? PostgresError, failure.isStalePreparedStatement { continue }
                        throw error
                    }
                }
                throw RESTError.internalFailure(.unexpected)
            }
        } catch let error as RESTError {
            throw error
        } catch let error as PostgresError {
            throw RESTError(error, isAuthenticated: scope.isAuthenticated)
        } catch {
            throw RESTError.internalFailure(.unexpected)
        }
    }

    /// The top plan node's `Plan Rows` from `EXPLAIN (FORMAT JSON)`'s one row.
    private static func plannedRows(_ rows: PostgresResult) throws -> Int? {
        let text = try rows[0].decode(String.self, at: 0)
        let plans = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [[String: Any]]
        let rows = (plans?.first?["Plan"] as? [String: Any])?["Plan Rows"] as? NSNumber
        return rows?.intValue
    }

    /// The statement's one row; 500 (54000) when its body was withheld as too large.
    private func statementResult(_ rows: PostgresResult) throws -> StatementResult {
        let row = rows[0]
        let body = try row.bytes(at: 2)
        if body == nil, let bytes = try row.decode(Int?.self, at: 4), bytes > maximumReplyBytes {
            throw RESTError.replyTooLarge(bytes: bytes, limit: maximumReplyBytes)
        }
        var result = StatementResult(
            total: try row.decode(Int?.self, at: 0), pageTotal: try row.decode(Int.self, at: 1),
            body: body.map(ReplyBytes.buffer) ?? ByteBuffer(), location: try row.decode(String?.self, at: 3),
            settings: try ResponseSettings(headers: try row.decode(String?.self, at: 5), status: try row.decode(String?.self, at: 6)))
        if rows.columns.count > 7 { result.inserted = try row.decode(Int?.self, at: 7) ?? 0 }
        return result
    }
}
