import Logging

/// A bounded pool of connections with a checkout timeout.
///
/// ```swift
/// let pool = PostgresPool(configuration: config, maximumConnections: 10, logger: logger)
/// let names = try await pool.withConnection { try await $0.query("SELECT name FROM schools") }
/// ```
/// At most `maximumConnections` are open. A checkout waits for a free one for at most
/// `checkoutTimeout`, then fails with `.poolTimeout`. Connections that come back broken
/// or still inside a transaction are closed, not reused.
public actor PostgresPool {
    /// Where connections go.
    public nonisolated let configuration: PostgresConfiguration
    /// The most connections open at once.
    public nonisolated let maximumConnections: Int
    /// How long a checkout waits for a free connection.
    public nonisolated let checkoutTimeout: Duration
    private let logger: Logger

    private var idle: [PostgresConnection] = []
    private var openCount = 0
    private var waiters: [Int: CheckedContinuation<PostgresConnection?, any Error>] = [:]
    private var waiterOrder: [Int] = []
    private var nextWaiterID = 0
    private var isClosed = false

    /// Makes a pool; connections open lazily on first use.
    public init(
        configuration: PostgresConfiguration, maximumConnections: Int = 10,
        checkoutTimeout: Duration = .seconds(10), logger: Logger
    ) {
        self.configuration = configuration
        self.maximumConnections = max(1, maximumConnections)
        self.checkoutTimeout = checkoutTimeout
        self.logger = logger
    }

    /// Leases a connection for the duration of `body`.
    public nonisolated func withConnection<T>(
        file: String = #fileID, line: Int = #line,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let connection = try await checkout(file: file, line: line)
        do {
            let value = try await body(connection)
            await checkin(connection)
            return value
        } catch {
            await checkin(connection)
            throw error
        }
    }

    /// Connections currently open (idle or leased).
    public var openConnections: Int { openCount }

    /// Closes idle connections and refuses new checkouts; leased ones close when returned.
    public func close() async {
        isClosed = true
        for id in waiterOrder {
            waiters.removeValue(forKey: id)?.resume(throwing: PostgresError(code: .poolClosed, message: "the pool is closed"))
        }
        waiterOrder.removeAll()
        let connections = idle
        idle.removeAll()
        openCount -= connections.count
        for connection in connections { await connection.close() }
    }

    private func checkout(file: String, line: Int) async throws -> PostgresConnection {
        guard !isClosed else { throw PostgresError(code: .poolClosed, message: "the pool is closed", file: file, line: line) }
        while let connection = idle.popLast() {
            if await connection.isReusable { return connection }
            openCount -= 1
            await connection.close()
        }
        if openCount < maximumConnections {
            openCount += 1
            do {
                return try await PostgresConnection.connect(to: configuration, logger: logger)
            } catch {
                openCount -= 1
                handOffCapacity()
                throw error
            }
        }
        let id = nextWaiterID
        nextWaiterID += 1
        let timeout = checkoutTimeout
        let leased = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection?, any Error>) in
                waiters[id] = continuation
                waiterOrder.append(id)
                Task { [weak self] in
                    try? await Task.sleep(for: timeout)
                    await self?.expireWaiter(id, file: file, line: line)
                }
            }
        } onCancel: {
            Task { [weak self] in await self?.cancelWaiter(id) }
        }
        if let leased { return leased }
        // A slot was freed rather than a connection: open a new one.
        return try await checkout(file: file, line: line)
    }

    private func checkin(_ connection: PostgresConnection) async {
        let reusable = await connection.isReusable
        if !reusable || isClosed {
            openCount -= 1
            await connection.close()
            handOffCapacity()
            return
        }
        if let id = waiterOrder.first, let continuation = waiters.removeValue(forKey: id) {
            waiterOrder.removeFirst()
            continuation.resume(returning: connection)
        } else {
            idle.append(connection)
        }
    }

    /// A slot freed up: wake one waiter so it opens a new connection.
    private func handOffCapacity() {
        guard let id = waiterOrder.first, let continuation = waiters.removeValue(forKey: id) else { return }
        waiterOrder.removeFirst()
        continuation.resume(returning: nil)
    }

    private func expireWaiter(_ id: Int, file: String, line: Int) {
        guard let continuation = waiters.removeValue(forKey: id) else { return }
        waiterOrder.removeAll { $0 == id }
        continuation.resume(
            throwing: PostgresError(
                code: .poolTimeout,
                message: "no database connection became free within \(checkoutTimeout) "
                    + "(all \(maximumConnections) in use)",
                file: file, line: line))
    }

    private func cancelWaiter(_ id: Int) {
        guard let continuation = waiters.removeValue(forKey: id) else { return }
        waiterOrder.removeAll { $0 == id }
        continuation.resume(throwing: CancellationError())
    }
}
