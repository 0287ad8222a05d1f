import Logging
import ServiceLifecycle
import Synchronization

/// A bounded pool of connections with a checkout timeout, run as a swift-service-lifecycle `Service`.
///
/// ```swift
/// let pool = PostgresPool(configuration: config, maximumConnections: 10, logger: logger)
/// // in a ServiceGroup beside its users, or around a piece of work:
/// let names = try await pool.withRunning { pool in
///     try await pool.withConnection { try await $0.query("SELECT name FROM schools") }
/// }
/// ```
/// Like postgres-nio's `PostgresClient`, nothing is leased until ``run()`` is active: a
/// checkout made earlier waits for it. `run()` owns the checkout deadlines (one loop, no
/// task per waiter) and the shutdown: when it ends (graceful shutdown or cancellation),
/// waiting checkouts fail with `.poolClosed`, idle connections close, and leased ones close
/// when returned. At most `maximumConnections` are open; connections that come back broken
/// or still inside a transaction are closed, not reused, and so is an idle one the server
/// ended meanwhile (a restart, `pg_terminate_backend`), found at checkout.
public actor PostgresPool: Service {
    /// Where connections go.
    public nonisolated let configuration: PostgresConfiguration
    /// The most connections open at once.
    public nonisolated let maximumConnections: Int
    /// How long a checkout waits for a free connection.
    public nonisolated let checkoutTimeout: Duration
    private let logger: Logger

    private var idle: [PostgresConnection] = []
    private var openCount = 0
    private var runState = RunState.notStarted
    /// Outside the actor so a cancelled checkout can leave the queue synchronously.
    private nonisolated let waiters = Mutex(PostgresPoolWaiters())
    /// Wakes ``run()`` when a checkout starts waiting on an empty queue.
    private nonisolated let wakeUps: AsyncStream<Void>
    private nonisolated let wake: AsyncStream<Void>.Continuation

    private enum RunState { case notStarted, running, closed }

    /// Makes a pool; connections open on first use once ``run()`` is active.
    public init(
        configuration: PostgresConfiguration, maximumConnections: Int = 10,
        checkoutTimeout: Duration = .seconds(10), logger: Logger
    ) {
        self.configuration = configuration
        self.maximumConnections = max(1, maximumConnections)
        self.checkoutTimeout = checkoutTimeout
        self.logger = logger
        (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
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

    /// What the pool holds right now, for metrics: connections leased, idle, and checkouts waiting.
    public var usage: (inUse: Int, idle: Int, waiting: Int) {
        (openCount - idle.count, idle.count, waiters.withLock { $0.count })
    }

    /// Serves checkouts and expires their deadlines until graceful shutdown or cancellation, then closes.
    public func run() async throws {
        guard runState == .notStarted else {
            throw PostgresError(code: .poolClosed, message: "the pool has already run; make a new one")
        }
        runState = .running
        // Checkouts that arrived before the pool ran: let as many open a connection as may.
        for _ in 0..<max(0, maximumConnections - openCount) { handOffCapacity() }
        await cancelWhenGracefulShutdown { await self.expireDeadlines() }
        await shutDown()
    }

    /// Runs the pool around `body` and shuts it down afterwards (commands, tests, benchmarks).
    public nonisolated func withRunning<T>(_ body: (PostgresPool) async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.run() }
            defer { group.cancelAll() }
            return try await body(self)
        }
    }

    /// The deadline loop: sleeps until the oldest checkout's deadline, or until one arrives.
    private func expireDeadlines() async {
        var wakeUps = self.wakeUps.makeAsyncIterator()
        while !Task.isCancelled {
            if let deadline = waiters.withLock({ $0.earliestDeadline }) {
                do {
                    try await Task.sleep(until: deadline, clock: .continuous)
                } catch {
                    return
                }
                for waiter in waiters.withLock({ $0.removeExpired(at: .now) }) {
                    waiter.continuation.resume(
                        throwing: PostgresError(
                            code: .poolTimeout,
                            message: "no database connection became free within \(checkoutTimeout) "
                                + "(all \(maximumConnections) in use)",
                            file: waiter.file, line: waiter.line))
                }
            } else if await wakeUps.next() == nil {
                return
            }
        }
    }

    private func shutDown() async {
        runState = .closed
        wake.finish()
        for waiter in waiters.withLock({ $0.removeAll() }) {
            waiter.continuation.resume(
                throwing: PostgresError(code: .poolClosed, message: "the pool is closed", file: waiter.file, line: waiter.line))
        }
        let connections = idle
        idle.removeAll()
        openCount -= connections.count
        for connection in connections { await connection.close() }
    }

    private func checkout(file: String, line: Int) async throws -> PostgresConnection {
        while true {
            switch runState {
            case .closed:
                throw PostgresError(code: .poolClosed, message: "the pool is closed", file: file, line: line)
            case .notStarted:
                break
            case .running:
                while let connection = idle.popLast() {
                    if connection.isUsableAtCheckout { return connection }
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
            }
            if let leased = try await waitForConnection(file: file, line: line) { return leased }
            // A slot was freed (or the pool started) rather than a connection handed over: try again.
        }
    }

    /// Queues this checkout; the answer is a connection, nil for "a slot is free", or an error.
    private func waitForConnection(file: String, line: Int) async throws -> PostgresConnection? {
        let deadline = ContinuousClock.now + checkoutTimeout
        let id = waiters.withLock { $0.reserveID() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let waiter = PostgresPoolWaiters.Waiter(
                    id: id, continuation: continuation, deadline: deadline, file: file, line: line)
                // Under the lock with the cancellation handler, so a checkout is never queued after it was cancelled.
                let queued = waiters.withLock { waiters in
                    guard !Task.isCancelled else { return false }
                    waiters.append(waiter)
                    return true
                }
                if queued {
                    wake.yield()
                } else {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            waiters.withLock { $0.remove(id) }?.continuation.resume(throwing: CancellationError())
        }
    }

    private func checkin(_ connection: PostgresConnection) async {
        let reusable = connection.isReusableBetweenLeases
        if !reusable || runState == .closed {
            openCount -= 1
            await connection.close()
            handOffCapacity()
            return
        }
        if let waiter = waiters.withLock({ $0.removeFirst() }) {
            waiter.continuation.resume(returning: connection)
        } else {
            idle.append(connection)
        }
    }

    /// A slot is free: wake the oldest waiter so it opens a new connection.
    private func handOffCapacity() {
        waiters.withLock { $0.removeFirst() }?.continuation.resume(returning: nil)
    }
}
