import Logging
import Postgres

/// Reads `realtime.changes` with a snapshot cursor, woken by NOTIFY.
///
/// ```swift
/// let source = SnapshotChangeSource(database: database, listenerConfiguration: config, logger: logger)
/// try await source.run(into: dispatcher)
/// ```
/// One LISTEN connection (``PostgresListener``) only wakes the poller; the rows are the
/// data. The poller runs on every notification (bursts coalesce into one poll), right
/// after every (re)connect of the listener, and on a slow timer, so a lost notification
/// delays a change by at most `fallbackInterval`. See ``ChangeCursor`` for why each
/// change is delivered exactly once, including transactions that commit out of order.
public struct SnapshotChangeSource: RealtimeChangeSource {
    /// The NOTIFY channel the change trigger wakes.
    public static let channel = "compass_realtime"

    let database: RealtimeDatabase
    let listenerConfiguration: PostgresConfiguration
    /// Poll at least this often even without notifications.
    public var fallbackInterval: Duration = .seconds(1)
    /// Rows read per statement; a larger backlog is read in several pages.
    public var pageSize = 2000
    /// Bytes of rows (`record` and `old_record` text) a page stops after: 2,000 rows of a
    /// megabyte each must not be read at once. A page always holds at least one change.
    public var pageByteBudget = 32 << 20
    let logger: Logger

    /// Makes a source; nothing connects until ``run(into:)``.
    public init(database: RealtimeDatabase, listenerConfiguration: PostgresConfiguration, logger: Logger) {
        self.database = database
        self.listenerConfiguration = listenerConfiguration
        self.logger = logger
    }

    public func run(into sink: some RealtimeChangeSink) async throws {
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // The starting point comes first, so nothing committed after startup can be missed.
        let start = try await database.retryingWhileUnavailable("take the starting snapshot") {
            try await startingCursor()
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                var listener = PostgresListener(configuration: listenerConfiguration, channels: [Self.channel], logger: logger)
                listener.onConnectionLost = { sink.sourceDisconnected() }
                for try await event in listener {
                    switch event {
                    case .listening(let gapPossible):
                        await sink.sourceConnected(reconnected: gapPossible)
                        wake.yield()
                    case .notification:
                        wake.yield()
                    }
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: fallbackInterval)
                    wake.yield()
                }
            }
            group.addTask {
                var cursor = start
                var backoff = Duration.zero
                for await _ in wakeups {
                    do {
                        try await database.retryingWhileUnavailable("poll realtime.changes") {
                            try await drain(&cursor, into: sink)
                        }
                        backoff = .zero
                    } catch let failure as RealtimeDeliveryFailure {
                        // The cursor stayed before the batch: a later wake-up offers it again.
                        backoff = min(max(backoff * 2, .milliseconds(100)), .seconds(30))
                        logger.error(
                            "batch not delivered; retrying it", metadata: ["realtime.error": "\(failure)", "realtime.retry_in": "\(backoff)"])
                        try await Task.sleep(for: backoff)
                    }
                }
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    /// The current snapshot: changes visible in it are history.
    func startingCursor() async throws -> ChangeCursor {
        let result = try await database.asServiceRole(["SELECT pg_current_snapshot()::text"])[0]
        return ChangeCursor(snapshot: try result[0].decode(String.self, at: 0))
    }

    /// Reads and delivers every change committed since the cursor's snapshot, page by page.
    ///
    /// Each page is delivered while the next one is read (on another connection), so the
    /// database and the fan-out work side by side; the read-ahead after a round's last page
    /// starts the next round, and the drain ends when a read finds nothing new. The cursor
    /// only moves after a page is delivered, so a failure mid-way (of the database, or a
    /// ``RealtimeDeliveryFailure`` of the sink) resumes exactly after the last delivered change.
    func drain(_ cursor: inout ChangeCursor, into sink: some RealtimeChangeSink) async throws {
        var rowLimit = pageSize
        var read = try await readPage(after: cursor, rowLimit: rowLimit, wanted: sink.wantedTables)
        while true {
            var advanced = cursor
            advanced.advance(
                roundSnapshot: read.snapshot, last: read.changes.last?.position,
                pageWasFull: read.changes.count >= rowLimit || read.rowBytes >= pageByteBudget)
            let afterPage = advanced
            if read.changes.isEmpty {
                cursor = afterPage
                return
            }
            // Pages of large rows stay about one budget long; pages that fit grow back.
            rowLimit = read.rowBytes >= pageByteBudget ? read.changes.count : min(pageSize, rowLimit * 2)
            let nextRowLimit = rowLimit
            async let following = readPage(after: afterPage, rowLimit: nextRowLimit, wanted: sink.wantedTables)
            try await sink.deliver(try await fillingRows(of: read.changes.map(\.change), wanted: sink.wantedTables))
            cursor = afterPage
            read = try await following
        }
    }
}
