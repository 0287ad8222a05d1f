import Logging

/// What a ``PostgresListener`` yields.
public enum PostgresListenerEvent: Sendable, Hashable {
    /// The channels are LISTENed. After a reconnect (`gapPossible == true`) notifications
    /// sent while we were away are lost: catch up from the tables.
    case listening(gapPossible: Bool)
    /// A notification arrived.
    case notification(PostgresNotification)
}

/// LISTEN on a dedicated connection, as an async sequence that survives disconnects.
///
/// ```swift
/// for try await event in PostgresListener(configuration: config, channels: ["compass_realtime"], logger: logger) { … }
/// ```
/// The consumer's iteration drives the connection: no background task. It waits on the
/// socket, pings when idle so a dead link is noticed, reconnects with exponential
/// backoff, re-LISTENs, and yields `.listening(gapPossible: true)` after each reconnect.
/// Iteration ends (returns nil) when the consuming task is cancelled.
public struct PostgresListener: AsyncSequence, Sendable {
    public typealias Element = PostgresListenerEvent

    /// Where to connect.
    public var configuration: PostgresConfiguration
    /// Channel names; escaped with `PQescapeIdentifier` before LISTEN.
    public var channels: [String]
    /// Idle time after which a `SELECT 1` checks the link.
    public var pingInterval: Duration = .seconds(5)
    /// First and longest delay between reconnect attempts.
    public var backoff: (initial: Duration, maximum: Duration) = (.milliseconds(100), .seconds(5))
    /// Called when the connection is lost, before reconnecting (readiness probes watch it).
    public var onConnectionLost: (@Sendable () -> Void)?
    let logger: Logger

    /// Makes a listener; nothing connects until iteration starts.
    public init(configuration: PostgresConfiguration, channels: [String], logger: Logger) {
        self.configuration = configuration
        self.channels = channels
        self.logger = logger
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(listener: self)
    }

    /// Drives one listening connection; not shared between tasks.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let listener: PostgresListener
        var connection: PostgresConnection?
        var buffered: [PostgresNotification] = []
        var hasConnectedBefore = false
        var idleSince = ContinuousClock.now

        public mutating func next() async throws -> PostgresListenerEvent? {
            while !Task.isCancelled {
                if !buffered.isEmpty { return .notification(buffered.removeFirst()) }
                guard let connection else {
                    guard let connected = await connectWithBackoff() else { return nil }
                    connection = connected
                    defer { hasConnectedBefore = true }
                    return .listening(gapPossible: hasConnectedBefore)
                }
                do {
                    let arrived = try await connection.waitForNotifications(timeout: .milliseconds(250))
                    if arrived.isEmpty {
                        if ContinuousClock.now - idleSince > listener.pingInterval {
                            try await connection.query("SELECT 1")
                            buffered += try await connection.waitForNotifications(timeout: .zero)
                            idleSince = .now
                        }
                    } else {
                        buffered = arrived
                        idleSince = .now
                    }
                } catch {
                    listener.logger.warning("listen connection lost", metadata: ["pg.error": "\(error)"])
                    listener.onConnectionLost?()
                    await connection.close()
                    self.connection = nil
                }
            }
            await connection?.close()
            connection = nil
            return nil
        }

        /// Connects and LISTENs, retrying with exponential backoff until it works or the task is cancelled.
        private func connectWithBackoff() async -> PostgresConnection? {
            var delay = listener.backoff.initial
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(to: listener.configuration, logger: listener.logger)
                    for channel in listener.channels {
                        let name = try await connection.escapeIdentifier(channel)
                        try await connection.query(PostgresQuery(unsafeSQL: "LISTEN \(name)"))
                    }
                    return connection
                } catch {
                    listener.logger.warning(
                        "listen connect failed, retrying", metadata: ["pg.error": "\(error)", "pg.retry_in": "\(delay)"])
                    try? await Task.sleep(for: delay)
                    delay = Swift.min(delay * 2, listener.backoff.maximum)
                }
            }
            return nil
        }
    }
}
