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
        var read = try await readPage(after: cursor)
        while true {
            var advanced = cursor
            advanced.advance(
                roundSnapshot: read.snapshot, last: read.page.last?.position, pageWasFull: read.page.count >= pageSize)
            let afterPage = advanced
            if read.page.isEmpty {
                cursor = afterPage
                return
            }
            async let following = readPage(after: afterPage)
            try await sink.deliver(read.page.map(\.change))
            cursor = afterPage
            read = try await following
        }
    }

    private func readPage(after cursor: ChangeCursor) async throws -> (snapshot: String, page: [PagedChange]) {
        if let round = cursor.pendingRound {
            let query: PostgresQuery = """
                SELECT \(unescaped: Self.columns)
                  FROM realtime.changes AS c
                 WHERE c.xid >= pg_snapshot_xmin(\(cursor.snapshot)::pg_snapshot)
                   AND NOT pg_visible_in_snapshot(c.xid, \(cursor.snapshot)::pg_snapshot)
                   AND pg_visible_in_snapshot(c.xid, \(round.snapshot)::pg_snapshot)
                   AND (c.xid, c.id) > (\(round.last.xid)::xid8, \(round.last.id))
                 ORDER BY c.xid, c.id
                 LIMIT \(pageSize)
                """
            let result = try await database.asServiceRole([Self.indexOnly, query])[1]
            return (round.snapshot, try result.map { try Self.change(from: $0, offset: 0) })
        }
        // One statement takes the new snapshot and reads with it: pg_current_snapshot() is
        // the statement's own snapshot, so "visible now" and "read now" are the same set.
        let query: PostgresQuery = """
            SELECT pg_current_snapshot()::text, page.*
              FROM (SELECT 1) AS one
              LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.columns)
                      FROM realtime.changes AS c
                     WHERE c.xid >= pg_snapshot_xmin(\(cursor.snapshot)::pg_snapshot)
                       AND NOT pg_visible_in_snapshot(c.xid, \(cursor.snapshot)::pg_snapshot)
                     ORDER BY c.xid, c.id
                     LIMIT \(pageSize)
                   ) AS page ON true
            """
        let result = try await database.asServiceRole([Self.indexOnly, query])[1]
        let snapshot = try result[0].decode(String.self, at: 0)
        var page: [PagedChange] = []
        page.reserveCapacity(result.count)
        for row in result where !row.isNull(at: 1) {
            page.append(try Self.change(from: row, offset: 1))
        }
        return (snapshot, page)
    }

    /// A change with its place in page order.
    struct PagedChange {
        var change: RealtimeChange
        var position: ChangeCursor.Position
    }

    /// The poll must walk the (xid, id) index: a sequential scan, chosen on stale statistics
    /// of this fast-growing table, would read every stored change on every poll.
    private static let indexOnly: PostgresQuery = "SELECT set_config('enable_seqscan', 'off', true)"

    private static let columns = """
        c.id, c.schema_name, c.table_name, c.type, c.record::text, c.old_record::text,
        (extract(epoch FROM c.created_at) * 1000000)::int8, c.xid::text
        """

    private static func change(from row: PostgresRow, offset: Int) throws -> PagedChange {
        let typeName = try row.decode(String.self, at: offset + 3)
        guard let type = RealtimeChangeType(rawValue: typeName) else {
            throw PostgresDecodingFailure("unknown change type")
        }
        let change = RealtimeChange(
            id: try row.decode(Int64.self, at: offset),
            schema: try row.decode(String.self, at: offset + 1),
            table: try row.decode(String.self, at: offset + 2),
            type: type,
            recordJSON: try row.decode(String?.self, at: offset + 4),
            oldRecordJSON: try row.decode(String?.self, at: offset + 5),
            recordedAtMicroseconds: try row.decode(Int64.self, at: offset + 6))
        let position = ChangeCursor.Position(xid: try row.decode(String.self, at: offset + 7), id: change.id)
        return PagedChange(change: change, position: position)
    }
}
