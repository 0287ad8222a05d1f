import CompassTestSupport
import Foundation
import Synchronization
import Testing

@testable import CompassRealtime
@testable import Postgres

/// What the poller reads per page: the rows only of tables the sink wants, and pages bounded
/// in bytes, without losing, repeating or reordering a change.
@Suite("Change source: pages bounded in bytes, rows only where wanted")
struct ChangePageTests {
    /// A sink that records each batch and answers `wantedTables` from a script, one answer per call.
    final class RecordingSink: RealtimeChangeSink {
        private let state: Mutex<(batches: [[RealtimeChange]], wantedCalls: Int)>
        private let wanted: @Sendable (_ call: Int) -> Set<RealtimeTableName>?

        init(wanted: @escaping @Sendable (_ call: Int) -> Set<RealtimeTableName>?) {
            self.state = Mutex(([], 0))
            self.wanted = wanted
        }

        var wantedTables: Set<RealtimeTableName>? {
            wanted(state.withLock { state in
                state.wantedCalls += 1
                return state.wantedCalls
            })
        }

        func deliver(_ changes: [RealtimeChange]) async throws(RealtimeDeliveryFailure) {
            state.withLock { $0.batches.append(changes) }
        }

        func sourceConnected(reconnected: Bool) async {}

        var batches: [[RealtimeChange]] { state.withLock { $0.batches } }
    }

    static let interactions = RealtimeTableName(schema: "public", table: "interactions")

    @Test func changesOfTablesNoChannelWatchesComeWithoutTheirRows() async throws {
        try await withSource { source, writer in
            var cursor = try await source.startingCursor()
            let ids = try await Self.insertInteractions(count: 3, contentLength: 20, on: writer)
            let unwatched = RecordingSink { _ in [] }
            try await source.drain(&cursor, into: unwatched)
            let delivered = unwatched.batches.flatMap { $0 }
            #expect(delivered.map(\.id) == ids)
            #expect(delivered.allSatisfy { $0.rowsLeftUnread && $0.recordJSON == nil })

            let moreIDs = try await Self.insertInteractions(count: 2, contentLength: 20, on: writer)
            let watching = RecordingSink { _ in [Self.interactions] }
            try await source.drain(&cursor, into: watching)
            let read = watching.batches.flatMap { $0 }
            #expect(read.map(\.id) == moreIDs)
            #expect(read.allSatisfy { !$0.rowsLeftUnread && $0.recordJSON?.contains("\"content\"") == true })
        }
    }

    @Test func aTableWatchedOnlyAfterThePageWasReadStillGetsItsRows() async throws {
        try await withSource { source, writer in
            var cursor = try await source.startingCursor()
            let ids = try await Self.insertInteractions(count: 2, contentLength: 20, on: writer)
            // The read sees no channel; by delivery one has joined (before the commit, as far
            // as the page knows): the rows are read again by id.
            let sink = RecordingSink { call in call == 1 ? [] : [Self.interactions] }
            try await source.drain(&cursor, into: sink)
            let delivered = sink.batches.flatMap { $0 }
            #expect(delivered.map(\.id) == ids)
            #expect(delivered.allSatisfy { !$0.rowsLeftUnread && $0.recordJSON?.contains("\"content\"") == true })
        }
    }

    @Test func pagesEndAtTheByteBudgetAndDeliverEveryChangeOnceInOrder() async throws {
        try await withSource(pageByteBudget: 4_000) { source, writer in
            var cursor = try await source.startingCursor()
            var ids = try await Self.insertInteractions(count: 12, contentLength: 600, on: writer)
            ids += try await Self.insertInteractions(count: 1, contentLength: 10_000, on: writer)
            ids += try await Self.insertInteractions(count: 3, contentLength: 600, on: writer)
            let sink = RecordingSink { _ in [Self.interactions] }
            try await source.drain(&cursor, into: sink)
            let batches = sink.batches
            #expect(batches.flatMap { $0 }.map(\.id) == ids)
            for batch in batches {
                // Every change but the last began under the budget.
                let bytesBeforeLast = batch.dropLast().reduce(0) { $0 + ($1.recordJSON?.utf8.count ?? 0) }
                #expect(bytesBeforeLast < 4_000)
            }
            #expect(batches.contains { $0.count == 1 && ($0[0].recordJSON?.utf8.count ?? 0) > 10_000 })
            #expect(batches.count >= 4)
        }
    }

    /// Runs `body` with a source on a fresh demo database and a writer connection.
    private func withSource(
        pageByteBudget: Int? = nil, _ body: (SnapshotChangeSource, PostgresConnection) async throws -> Void
    ) async throws {
        try await TestDatabase.with(demoData: true) { database in
            let realtime = RealtimeDatabase(configuration: database.configuration, logger: TestDatabase.logger)
            var source = SnapshotChangeSource(
                database: realtime, listenerConfiguration: database.configuration, logger: TestDatabase.logger)
            if let pageByteBudget { source.pageByteBudget = pageByteBudget }
            let writer = try await database.connect()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await realtime.pool.run() }
                defer { group.cancelAll() }
                try await body(source, writer)
            }
            await writer.close()
        }
    }

    /// Logs `count` interactions (one transaction) and returns their change ids, in order.
    private static func insertInteractions(count: Int, contentLength: Int, on writer: PostgresConnection) async throws -> [Int64] {
        try await writer.query(
            """
            INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction, content)
            SELECT \(Demo.riveraFamily)::uuid, \(Demo.sofia)::uuid, \(Demo.sofia)::uuid, 'email', 'outbound',
                   repeat('x', \(contentLength))
              FROM generate_series(1, \(count))
            """)
        let result = try await writer.query(
            "SELECT id FROM realtime.changes WHERE xid = (SELECT max(xid) FROM realtime.changes) ORDER BY id")
        return try result.map { try $0.decode(Int64.self, at: 0) }
    }
}
