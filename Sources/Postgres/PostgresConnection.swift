import CLibPQ
import Foundation
import Logging
import Synchronization

/// One libpq connection in non-blocking mode, used by one operation at a time.
///
/// ```swift
/// let connection = try await PostgresConnection.connect(to: configuration, logger: logger)
/// let rows = try await connection.query("SELECT name FROM schools WHERE id = \(id)")
/// ```
/// libpq forbids two threads using one `PGconn` at once: the actor keeps its calls apart, and
/// ``exclusively(_:)`` keeps whole operations apart across their waits. A wait for the server
/// holds no thread: the task suspends on the shared ``SocketPoller`` and resumes where it was
/// sent from, so a statement costs no hop to a thread of its own and back. A cancelled task,
/// or a caller that has left (``PostgresCancellation``), cancels its running statement on the server.
public actor PostgresConnection {
    /// Owns the `PGconn` and its cancel handle; nil once closed.
    private var owned: LibPQHandle? {
        didSet { betweenLeases.withLock { $0 = owned } }
    }
    /// `owned`, for ``isReusableBetweenLeases`` (read by the pool off this connection's queue).
    private nonisolated let betweenLeases = Mutex<LibPQHandle?>(nil)
    var handle: OpaquePointer? { owned?.connection }
    private var cancelHandle: OpaquePointer? { owned?.cancel }
    /// Notifications that arrived while a query was running, delivered by ``waitForNotifications(timeout:)``.
    private var pendingNotifications: [PostgresNotification] = []
    /// The statements this connection has prepared (see ``PostgresQuery/prepared``).
    var statements: PreparedStatementCache

    /// The settings this connection was opened with.
    public nonisolated let configuration: PostgresConfiguration
    let logger: Logger

    /// How many client→server→client exchanges this connection has made (a pipeline counts once).
    public internal(set) var roundTrips = 0

    /// Whether an operation holds the connection, and who waits for it (see ``exclusively(_:)``).
    private var inUse = false
    private var waitingForUse: [CheckedContinuation<Void, Never>] = []
    /// The running operation's cancel request, made at its first wait for the server.
    private var cancellation: StatementCancellation?

    private init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.statements = PreparedStatementCache(capacity: configuration.preparedStatementCacheSize)
    }

    /// Opens a connection; failures name the server and user but never the password.
    public static func connect(to configuration: PostgresConfiguration, logger: Logger) async throws -> PostgresConnection {
        let connection = PostgresConnection(configuration: configuration, logger: logger)
        try await connection.open()
        return connection
    }

    /// Connects on a dispatch thread: libpq's connect blocks (DNS, TLS, authentication) and
    /// enforces `connect_timeout` only that way; connections open rarely, statements often.
    private func open() async throws(PostgresError) {
        let configuration = configuration
        let opened = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: Self.connectBlocking(configuration)) }
        }
        owned = try opened.get()
        logger.debug("connected", metadata: ["pg.endpoint": "\(configuration.endpoint)", "pg.pid": "\(backendPID)"])
    }

    private static func connectBlocking(_ configuration: PostgresConfiguration) -> Result<LibPQHandle, PostgresError> {
        Result { () throws(PostgresError) in try openBlocking(configuration) }
    }

    private static func openBlocking(_ configuration: PostgresConfiguration) throws(PostgresError) -> LibPQHandle {
        // libpq reads each setting up to its first NUL: a password cut short must not be tried.
        if let setting = configuration.parameters.first(where: { $0.key.utf8.contains(0) || $0.value.utf8.contains(0) }) {
            throw PostgresError(
                code: .invalidConfiguration, message: "connection setting \"\(setting.key.prefix(40))\" holds a NUL byte")
        }
        let keys = configuration.parameters.map { strdup($0.key) }
        let values = configuration.parameters.map { strdup($0.value) }
        defer { (keys + values).forEach { free($0) } }
        let keyPointers = keys.map { UnsafePointer($0) } + [nil]
        let valuePointers = values.map { UnsafePointer($0) } + [nil]
        let connection = PQconnectdbParams(keyPointers, valuePointers, 0)
        guard let connection, PQstatus(connection) == CONNECTION_OK else {
            let reason = connection.map { Self.firstLine(String(cString: PQerrorMessage($0))) } ?? "out of memory"
            if let connection { PQfinish(connection) }
            throw PostgresError(
                code: .connectionFailed,
                message: "could not connect to PostgreSQL at \(configuration.endpoint) as user "
                    + "\"\(configuration.user)\": \(reason)")
        }
        guard PQsetnonblocking(connection, 1) == 0 else {
            PQfinish(connection)
            throw PostgresError(code: .connectionFailed, message: "could not switch the connection to non-blocking mode")
        }
        // libpq prints server notices (and a terminated backend's FATAL) to stderr by
        // default; errors already reach callers as thrown PostgresErrors.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        return LibPQHandle(connection: connection, cancel: PQgetCancel(connection))
    }

    /// Closes the connection once the operation using it (if any) is done; later calls fail with
    /// `.closed`. Safe to call twice.
    public func close() async {
        await exclusively { () throws(Never) in owned = nil }
    }

    /// Runs `body` as the connection's only operation: one that suspends on the server mid-way
    /// (a pipeline, a wait for notifications) keeps every other call out until it ends.
    func exclusively<T, Failure: Error>(_ body: () async throws(Failure) -> T) async throws(Failure) -> T {
        if inUse {
            await withCheckedContinuation { waitingForUse.append($0) }
        } else {
            inUse = true
        }
        let outcome: Result<T, Failure>
        do throws(Failure) {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        if let cancellation {
            self.cancellation = nil
            await cancellation.settled()
        }
        // Handed straight to the next in line, so no call can slip in between.
        if waitingForUse.isEmpty { inUse = false } else { waitingForUse.removeFirst().resume() }
        return try outcome.get()
    }

    /// The server process id serving this connection (0 when closed).
    public var backendPID: Int32 {
        handle.map { PQbackendPID($0) } ?? 0
    }

    /// True when the connection is open, healthy and outside any transaction (safe to reuse).
    public var isReusable: Bool {
        guard let handle, PQstatus(handle) == CONNECTION_OK else { return false }
        return PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// ``isReusable`` read by the pool when a lease ends or begins, without a hop onto the
    /// connection's queue and back (two thread switches per read).
    ///
    /// Only meaningful while no task uses the connection: then libpq's state is settled, and the
    /// hand-back from the connection's queue to the task that ended its lease ordered libpq's
    /// writes before this read.
    nonisolated var isReusableBetweenLeases: Bool {
        guard let handle = betweenLeases.withLock({ $0 })?.connection, PQstatus(handle) == CONNECTION_OK else { return false }
        return PQtransactionStatus(handle) == PQTRANS_IDLE
    }

    /// ``isReusableBetweenLeases``, and the server has sent nothing since the last lease.
    ///
    /// A server restart, `pg_terminate_backend` or a killed backend ends idle connections behind
    /// the pool's back: the server's last words (a `FATAL`, which libpq files as a notice while
    /// idle) and then end of file wait unread in the socket, and libpq reports the connection
    /// healthy until it next reads. An idle pooled connection is otherwise sent nothing (bar a
    /// setting the server reports after a configuration reload, which costs one reconnect here),
    /// so one `poll` with no timeout, about a microsecond, decides: anything waiting, and the
    /// pool opens a fresh connection instead.
    nonisolated var isUsableAtCheckout: Bool {
        betweenLeases.withLock { owned in
            guard let handle = owned?.connection, PQstatus(handle) == CONNECTION_OK,
                PQtransactionStatus(handle) == PQTRANS_IDLE
            else { return false }
            var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
            return socket.fd >= 0 && poll(&socket, 1, 0) == 0
        }
    }

    /// True once the connection is closed or broken.
    public var isClosed: Bool {
        guard let handle else { return true }
        return PQstatus(handle) != CONNECTION_OK
    }

    // MARK: - Queries

    /// Runs one parameterized statement and returns its rows.
    ///
    /// A ``PostgresQuery/prepared`` statement is prepared (first time) and executed in one pipeline.
    @discardableResult
    public func query(_ query: PostgresQuery, file: String = #fileID, line: Int = #line) async throws(PostgresError) -> PostgresResult {
        try await exclusively { () throws(PostgresError) in try await run(query, file: file, line: line) }
    }

    private func run(_ query: PostgresQuery, file: String, line: Int) async throws(PostgresError) -> PostgresResult {
        if query.isPrepared, statements.capacity > 0 {
            do {
                return try await runPipelineRetryingStale(segments: [[query]], file: file, line: line)[0][0].get()
            } catch var error {
                error.statementIndex = nil
                throw error
            }
        }
        try query.refuseNULBytes(file: file, line: line)
        let connection = try requireOpen(query, file: file, line: line)
        roundTrips += 1
        try send(query, on: connection, file: file, line: line)
        try await flush(connection, query: query, file: file, line: line)
        var outcome: Result<PostgresResult, PostgresError>?
        while let result = try await nextResult(connection, query: query, file: file, line: line) {
            if outcome == nil { outcome = convert(result, query: query, file: file, line: line) }
            PQclear(result)
        }
        guard let outcome else {
            throw PostgresError(code: .unexpectedResult, message: "no result", query: query.sql, file: file, line: line)
        }
        return try outcome.get()
    }

    /// Runs SQL text that may hold several `;`-separated statements (migrations, fixtures).
    ///
    /// It takes no parameters, so it must never carry user input.
    @discardableResult
    public func executeScript(unsafeSQL sql: String, file: String = #fileID, line: Int = #line) async throws(PostgresError) -> PostgresResult {
        try await exclusively { () throws(PostgresError) in try await runScript(sql, file: file, line: line) }
    }

    private func runScript(_ sql: String, file: String, line: Int) async throws(PostgresError) -> PostgresResult {
        let script = PostgresQuery(unsafeSQL: sql)
        try script.refuseNULBytes(file: file, line: line)
        let connection = try requireOpen(script, file: file, line: line)
        roundTrips += 1
        guard PQsendQuery(connection, sql) == 1 else { throw connectionError(connection, script, file, line) }
        try await flush(connection, query: script, file: file, line: line)
        var last: Result<PostgresResult, PostgresError> = .success(.empty())
        var failure: PostgresError?
        while let result = try await nextResult(connection, query: script, file: file, line: line) {
            last = convert(result, query: script, file: file, line: line)
            if case .failure(let error) = last, failure == nil { failure = error }
            PQclear(result)
        }
        if let failure { throw failure }
        return try last.get()
    }

    /// Drops every prepared statement of this session (`DEALLOCATE ALL`), the cache's included.
    public func deallocateAllPreparedStatements(file: String = #fileID, line: Int = #line) async throws(PostgresError) {
        try await exclusively { () throws(PostgresError) in
            try await run("DEALLOCATE ALL", file: file, line: line)
            statements.removeAll()
        }
    }

    /// Gives the connection up (it is closed and never reused): used when libpq was left mid-way.
    func abandon() {
        owned = nil
    }

    /// Statements this connection keeps prepared through its cache (for tests and benchmarks).
    public var preparedStatementCount: Int { statements.count }

    /// Quotes an identifier (a channel or table name) with `PQescapeIdentifier`.
    ///
    /// One holding a NUL byte is refused: libpq would quote only the part before it.
    public func escapeIdentifier(_ identifier: String) throws -> String {
        let probe = PostgresQuery(unsafeSQL: "")
        if identifier.utf8.contains(0) { throw PostgresError.nulByte(in: "an identifier", query: probe, file: #fileID, line: #line) }
        let connection = try requireOpen(probe, file: #fileID, line: #line)
        let length = identifier.utf8.count
        guard let escaped = PQescapeIdentifier(connection, identifier, length) else {
            throw PostgresError(code: .unexpectedResult, message: Self.firstLine(String(cString: PQerrorMessage(connection))))
        }
        defer { PQfreemem(escaped) }
        return String(cString: escaped)
    }

    // MARK: - Notifications

    /// Waits up to `timeout` for NOTIFY messages on this connection's LISTENed channels.
    ///
    /// It waits on the socket (no sleeping) and returns early with whatever arrived;
    /// an empty array means the timeout passed. A broken connection throws `.connectionLost`.
    public func waitForNotifications(timeout: Duration) async throws(PostgresError) -> [PostgresNotification] {
        try await exclusively { () throws(PostgresError) in
            let probe = PostgresQuery(unsafeSQL: "-- wait for notifications")
            let connection = try requireOpen(probe, file: #fileID, line: #line)
            if pendingNotifications.isEmpty {
                // Already read, or arriving now: no wait needed to find them.
                try consumeInput(connection, probe)
            }
            if pendingNotifications.isEmpty, timeout > .zero {
                let socket = try socket(of: connection, probe)
                switch await SocketPoller.shared.wait(for: socket, writable: false, deadline: .now + timeout, cancellation: nil) {
                case .ready: try consumeInput(connection, probe)
                case .timedOut: break
                case .unwatchable(let code): throw unwatchable(code, probe)
                }
            }
            defer { pendingNotifications.removeAll() }
            return pendingNotifications
        }
    }

    // MARK: - libpq drive loop

    func requireOpen(_ query: PostgresQuery, file: String, line: Int) throws(PostgresError) -> OpaquePointer {
        guard let handle else {
            throw PostgresError(code: .closed, message: "the connection is closed", query: query.sql, file: file, line: line)
        }
        guard PQstatus(handle) == CONNECTION_OK else { throw connectionError(handle, query, file, line) }
        return handle
    }

    /// Sends `query`, executing the prepared statement `name` when given, else the unnamed one.
    func send(
        _ query: PostgresQuery, as name: String? = nil, on connection: OpaquePointer, file: String, line: Int
    ) throws(PostgresError) {
        let values = query.binds.map { $0.map { strdup($0) } ?? nil }
        defer { values.forEach { free($0) } }
        let pointers = values.map { UnsafePointer($0) }
        let sent =
            if let name {
                PQsendQueryPrepared(connection, name, Int32(pointers.count), pointers, nil, nil, 0)
            } else {
                PQsendQueryParams(connection, query.sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
            }
        guard sent == 1 else { throw connectionError(connection, query, file, line) }
    }

    func flush(_ connection: OpaquePointer, query: PostgresQuery, file: String, line: Int) async throws(PostgresError) {
        while true {
            let status = PQflush(connection)
            if status == 0 { return }
            guard status > 0 else { throw connectionError(connection, query, file, line) }
            // The server may be blocked writing to us: read while we wait to write.
            try await waitForServer(connection, writable: true, query: query)
            try consumeInput(connection, query, file, line)
        }
    }

    /// The next `PGresult` (caller clears it), or nil at the end of the current statement.
    func nextResult(
        _ connection: OpaquePointer, query: PostgresQuery, file: String, line: Int
    ) async throws(PostgresError) -> OpaquePointer? {
        while PQisBusy(connection) == 1 {
            try await waitForServer(connection, writable: false, query: query)
            try consumeInput(connection, query, file, line)
        }
        return PQgetResult(connection)
    }

    /// Reads what the server sent so far (without waiting) and collects its notifications.
    private func consumeInput(
        _ connection: OpaquePointer, _ query: PostgresQuery, _ file: String = #fileID, _ line: Int = #line
    ) throws(PostgresError) {
        guard PQconsumeInput(connection) == 1 else { throw connectionError(connection, query, file, line) }
        collectNotifications(connection)
    }

    private func socket(of connection: OpaquePointer, _ query: PostgresQuery) throws(PostgresError) -> Int32 {
        let socket = PQsocket(connection)
        guard socket >= 0 else { throw connectionError(connection, query, #fileID, #line) }
        return socket
    }

    /// Suspends until the server has sent something (or, when `writable`, can take more).
    ///
    /// Meanwhile the running statement is cancelled on the server if the calling task is
    /// cancelled or its caller has left (see ``PostgresCancellation``); its error then ends the wait.
    private func waitForServer(_ connection: OpaquePointer, writable: Bool, query: PostgresQuery) async throws(PostgresError) {
        let socket = try socket(of: connection, query)
        if cancellation == nil, let owned {
            cancellation = StatementCancellation(handle: owned, caller: PostgresCancellation.caller)
        }
        if case .unwatchable(let code) = await SocketPoller.shared.wait(
            for: socket, writable: writable, deadline: nil, cancellation: cancellation)
        {
            throw unwatchable(code, query)
        }
    }

    private func unwatchable(_ code: Int32, _ query: PostgresQuery) -> PostgresError {
        PostgresError(
            code: .connectionLost, message: "cannot wait for the server: epoll refused the socket (errno \(code))",
            query: query.sql)
    }

    private func collectNotifications(_ connection: OpaquePointer) {
        while let notify = PQnotifies(connection) {
            pendingNotifications.append(
                PostgresNotification(
                    channel: String(cString: notify.pointee.relname),
                    payload: String(cString: notify.pointee.extra),
                    backendPID: notify.pointee.be_pid))
            PQfreemem(notify)
        }
    }

    func convert(
        _ result: OpaquePointer, query: PostgresQuery, file: String, line: Int
    ) -> Result<PostgresResult, PostgresError> {
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_SINGLE_TUPLE, PGRES_EMPTY_QUERY:
            return .success(Self.copy(result))
        default:
            return .failure(Self.serverError(result, query: query, file: file, line: line))
        }
    }

    /// Copies every value into one buffer (one allocation for the text, one for the spans).
    private static func copy(_ result: OpaquePointer) -> PostgresResult {
        let columnCount = PQnfields(result)
        let rowCount = PQntuples(result)
        var columns: [PostgresColumn] = []
        columns.reserveCapacity(Int(columnCount))
        for column in 0..<columnCount {
            columns.append(
                PostgresColumn(name: String(cString: PQfname(result, column)), dataType: PostgresDataType(oid: PQftype(result, column))))
        }
        var spans: [PostgresResult.ValueSpan] = []
        spans.reserveCapacity(Int(rowCount) * Int(columnCount))
        var total = 0
        for row in 0..<rowCount {
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    spans.append(PostgresResult.ValueSpan(start: total, length: -1))
                } else {
                    let length = PQgetlength(result, row, column)
                    spans.append(PostgresResult.ValueSpan(start: total, length: length))
                    total += Int(length)
                }
            }
        }
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            var index = 0
            for row in 0..<rowCount {
                for column in 0..<columnCount {
                    let span = spans[index]
                    index += 1
                    guard span.length > 0, let value = PQgetvalue(result, row, column) else { continue }
                    UnsafeMutableRawPointer(buffer.baseAddress! + span.start).copyMemory(from: value, byteCount: Int(span.length))
                }
            }
            initialized = total
        }
        let affected = String(cString: PQcmdTuples(result))
        return PostgresResult(columns: columns, bytes: bytes, spans: spans, rowCount: Int(rowCount), affectedRows: Int(affected))
    }

    private static func serverError(_ result: OpaquePointer, query: PostgresQuery, file: String, line: Int) -> PostgresError {
        func field(_ code: Int32) -> String? {
            PQresultErrorField(result, code).map { String(cString: $0) }
        }
        let message = field(CLibPQ_DIAG_MESSAGE_PRIMARY) ?? firstLine(String(cString: PQresultErrorMessage(result)))
        let sqlState = field(CLibPQ_DIAG_SQLSTATE).map(SQLState.init(rawValue:))
        var error = PostgresError(
            code: sqlState == nil ? .connectionLost : .server, message: message, sqlState: sqlState,
            query: query.sql, binds: query.binds, file: file, line: line)
        error.detail = field(CLibPQ_DIAG_MESSAGE_DETAIL)
        error.hint = field(CLibPQ_DIAG_MESSAGE_HINT)
        error.constraint = field(CLibPQ_DIAG_CONSTRAINT_NAME)
        error.schema = field(CLibPQ_DIAG_SCHEMA_NAME)
        error.table = field(CLibPQ_DIAG_TABLE_NAME)
        error.column = field(CLibPQ_DIAG_COLUMN_NAME)
        error.routine = field(CLibPQ_DIAG_SOURCE_FUNCTION)
        return error
    }

    func connectionError(_ connection: OpaquePointer, _ query: PostgresQuery, _ file: String, _ line: Int) -> PostgresError {
        PostgresError(
            code: .connectionLost,
            message: "connection to \(configuration.endpoint) lost: \(Self.firstLine(String(cString: PQerrorMessage(connection))))",
            query: query.sql, file: file, line: line)
    }

    static func firstLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        return line.trimmingCharacters(in: .whitespaces)
    }
}

/// A NOTIFY received on a LISTENed channel.
public struct PostgresNotification: Sendable, Hashable {
    /// The channel name.
    public var channel: String
    /// The payload text (may be empty).
    public var payload: String
    /// The process id of the notifying backend.
    public var backendPID: Int32
}

/// Frees a `PGconn` and its cancel handle exactly once, when the last reference goes.
///
/// `@unchecked Sendable`: the pointers are only dereferenced by the owning
/// ``PostgresConnection``, inside its actor (and the cancel handle by `PQcancel`, which is made for that); this box merely lets the handle be
/// released from whichever thread drops the last reference, when no one else uses it.
final class LibPQHandle: @unchecked Sendable {
    let connection: OpaquePointer
    let cancel: OpaquePointer?

    init(connection: OpaquePointer, cancel: OpaquePointer?) {
        self.connection = connection
        self.cancel = cancel
    }

    deinit {
        if let cancel { PQfreeCancel(cancel) }
        let socket = PQsocket(connection)
        if socket >= 0 { SocketPoller.shared.forget(socket) }
        PQfinish(connection)
    }
}
