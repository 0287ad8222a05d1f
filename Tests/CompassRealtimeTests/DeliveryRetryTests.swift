import CompassTestSupport
import Foundation
import Synchronization
import Testing

@testable import CompassRealtime
@testable import Postgres

/// A batch the fan-out could not deliver to anyone is offered again, not skipped.
@Suite("Change source: undelivered batches are retried")
struct DeliveryRetryTests {
    /// A sink that refuses its first `failures` batches, then records what it gets.
    final class RefusingSink: RealtimeChangeSink {
        private let state: Mutex<(failures: Int, attempts: Int, delivered: [Int64], connected: Bool)>

        init(failures: Int) {
            state = Mutex((failures, 0, [], false))
        }

        func deliver(_ changes: [RealtimeChange]) async throws(RealtimeDeliveryFailure) {
            let refused = state.withLock { state in
                state.attempts += 1
                guard state.failures == 0 else {
                    state.failures -= 1
                    return true
                }
                state.delivered += changes.map(\.id)
                return false
            }
            if refused { throw RealtimeDeliveryFailure(reason: "refused for the test") }
        }

        func sourceConnected(reconnected: Bool) async {
            state.withLock { $0.connected = true }
        }

        var connected: Bool { state.withLock { $0.connected } }
        var delivered: [Int64] { state.withLock { $0.delivered } }
        var attempts: Int { state.withLock { $0.attempts } }
    }

    @Test func aRefusedBatchIsDeliveredLaterExactlyOnce() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let realtime = RealtimeDatabase(configuration: database.configuration, logger: TestDatabase.logger)
            var source = SnapshotChangeSource(
                database: realtime, listenerConfiguration: database.configuration, logger: TestDatabase.logger)
            source.fallbackInterval = .milliseconds(100)
            let sink = RefusingSink(failures: 2)
            let writer = try await database.connect()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await realtime.pool.run() }
                group.addTask { [source] in try await source.run(into: sink) }
                defer { group.cancelAll() }
                try await waitUntil { sink.connected }
                try await writer.query(
                    """
                    INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction, content)
                    VALUES (\(Demo.riveraFamily)::uuid, \(Demo.sofia)::uuid, \(Demo.sofia)::uuid, 'email', 'outbound', 'retried')
                    """)
                let stored = try await writer.query("SELECT max(id)::int8 FROM realtime.changes")[0].decode(Int64.self, at: 0)
                try await waitUntil { !sink.delivered.isEmpty }
                try await Task.sleep(for: .milliseconds(300))  // a few more polls: nothing is sent twice
                #expect(sink.delivered == [stored])
                #expect(sink.attempts == 3)
            }
            await writer.close()
        }
    }
}
