import CompassTestSupport
import Foundation
import Synchronization
import Testing

@testable import Postgres

/// The waits that end other than by the server's answer: a caller that leaves, a deadline, a
/// cancelled wait. (A statement's own answer waking its waiter is in PostgresConnectionTests.)
@Suite("Waiting on the server without holding a thread")
struct SocketPollerTests {
    /// A caller whose `hasLeft` the test flips, as an HTTP client hanging up does.
    final class Caller: PostgresCaller {
        let left = Atomic(false)
        var hasLeft: Bool { left.load(ordering: .relaxed) }
    }

    @Test func aCallerThatLeavesHasItsRunningStatementCancelled() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let caller = Caller()
            let started = ContinuousClock.now
            let statement = Task {
                try await PostgresCancellation.$caller.withValue(caller) {
                    try await connection.query("SELECT pg_sleep(30)")
                }
            }
            try await Task.sleep(for: .milliseconds(300))
            caller.left.store(true, ordering: .relaxed)
            let error = await #expect(throws: PostgresError.self) { try await statement.value }
            #expect(error?.sqlState == .queryCanceled)
            #expect(ContinuousClock.now - started < .seconds(10))
            // The connection answered its cancelled statement and is usable again.
            #expect(try await connection.query("SELECT 1::int4").count == 1)
            await connection.close()
        }
    }

    @Test func aCancelledTasksRollbackStillRunsAndLeavesTheConnectionReusable() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            try await connection.query("CREATE TEMP TABLE poller_rollback (x int4)")
            let transaction = Task {
                try await connection.withTransaction { transaction in
                    try await transaction.query("INSERT INTO poller_rollback VALUES (1)")
                    try await Task.sleep(for: .seconds(30))
                }
            }
            try await Task.sleep(for: .milliseconds(200))
            transaction.cancel()
            // The body's CancellationError, not a cancelled ROLLBACK: statements that answer at
            // once are left to finish, so the cleanup of a cancelled task still runs.
            await #expect(throws: CancellationError.self) { try await transaction.value }
            #expect(await connection.isReusable)
            #expect(try await connection.query("SELECT count(*)::int4 FROM poller_rollback")[0].decode(Int32.self, at: 0) == 0)
            await connection.close()
        }
    }

    @Test func aTimedWaitForNotificationsEndsAtItsDeadlineOrAtTheFirstNotification() async throws {
        try await TestDatabase.with { database in
            let listener = try await database.connect()
            let notifier = try await database.connect()
            try await listener.query("LISTEN compass_poller_test")

            var started = ContinuousClock.now
            #expect(try await listener.waitForNotifications(timeout: .milliseconds(250)).isEmpty)
            let waited = ContinuousClock.now - started
            #expect(waited >= .milliseconds(250) && waited < .seconds(2))

            // Sent while the listener waits: it wakes for it, long before its deadline.
            started = .now
            let sender = Task {
                try await Task.sleep(for: .milliseconds(200))
                try await notifier.query("NOTIFY compass_poller_test, 'hello'")
            }
            let arrived = try await listener.waitForNotifications(timeout: .seconds(20))
            try await sender.value
            #expect(arrived.map(\.payload) == ["hello"])
            #expect(ContinuousClock.now - started < .seconds(10))

            // Already delivered before the call: a zero timeout still finds it.
            try await notifier.query("NOTIFY compass_poller_test, 'queued'")
            try await Task.sleep(for: .milliseconds(100))
            #expect(try await listener.waitForNotifications(timeout: .zero).map(\.payload) == ["queued"])
            await listener.close()
            await notifier.close()
        }
    }

    @Test func cancellingATimedWaitEndsItAtOnceAndLeavesTheConnectionUsable() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            try await connection.query("LISTEN compass_poller_cancel")
            let started = ContinuousClock.now
            let wait = Task { try await connection.waitForNotifications(timeout: .seconds(30)) }
            try await Task.sleep(for: .milliseconds(200))
            wait.cancel()
            #expect(try await wait.value.isEmpty)
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(try await connection.query("SELECT 1::int4").count == 1)
            await connection.close()
        }
    }
}
