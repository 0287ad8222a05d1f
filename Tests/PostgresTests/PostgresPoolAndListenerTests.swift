import CompassTestSupport
import Foundation
import Testing

@testable import Postgres

@Suite("Pool and LISTEN/NOTIFY against a real server")
struct PostgresPoolAndListenerTests {
    @Test func exhaustedPoolTimesOutWithAClearErrorThenRecovers() async throws {
        try await TestDatabase.with { database in
            let pool = PostgresPool(
                configuration: database.configuration, maximumConnections: 1,
                checkoutTimeout: .milliseconds(300), logger: TestDatabase.logger)
            try await pool.withRunning { pool in
                let (holding, release) = AsyncStream.makeStream(of: Void.self)
                let (held, signalHeld) = AsyncStream.makeStream(of: Void.self)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await pool.withConnection { _ in
                            signalHeld.yield()
                            for await _ in holding { break }
                        }
                    }
                    for await _ in held { break }
                    let error = await #expect(throws: PostgresError.self) {
                        try await pool.withConnection { try await $0.query("SELECT 1") }
                    }
                    #expect(error?.code == .poolTimeout)
                    #expect(error?.description.contains("1 in use") == true)
                    release.yield()
                    try await group.waitForAll()
                }
                let value = try await pool.withConnection { try await $0.query("SELECT 42::int4")[0].decode(Int.self, at: 0) }
                #expect(value == 42)
                #expect(await pool.openConnections == 1)
            }
        }
    }

    @Test func brokenConnectionsAreDiscardedNotReused() async throws {
        try await TestDatabase.with { database in
            let pool = PostgresPool(configuration: database.configuration, maximumConnections: 1, logger: TestDatabase.logger)
            try await pool.withRunning { pool in
                let firstPID = try await pool.withConnection { connection in
                    try await connection.query("BEGIN")  // returned mid-transaction: not reusable
                    return await connection.backendPID
                }
                let secondPID = try await pool.withConnection { await $0.backendPID }
                #expect(firstPID != secondPID)
            }
        }
    }

    /// A server restart or `pg_terminate_backend` ends idle pooled connections behind the pool's
    /// back; the next request must get a live connection, not the dead one's error.
    @Test func connectionsTheServerEndedWhileIdleAreReplacedAtCheckout() async throws {
        try await TestDatabase.with { database in
            let pool = PostgresPool(configuration: database.configuration, maximumConnections: 2, logger: TestDatabase.logger)
            try await pool.withRunning { pool in
                let pids = try await withThrowingTaskGroup(of: Int32.self) { group in
                    let (bothLeased, signal) = AsyncStream.makeStream(of: Void.self)
                    for _ in 0..<2 {
                        group.addTask {
                            try await pool.withConnection { connection in
                                signal.yield()
                                for await _ in bothLeased { break }
                                return await connection.backendPID
                            }
                        }
                    }
                    try await Task.sleep(for: .milliseconds(200))
                    signal.finish()
                    return try await group.reduce(into: [Int32]()) { $0.append($1) }
                }
                #expect(Set(pids).count == 2)
                let observer = try await database.connect()
                _ = try await observer.query("SELECT pg_terminate_backend(pid::int4) FROM unnest(\(pids.map(Int64.init))::int8[]) AS pid")
                for _ in 0..<100 {  // until both backends are gone
                    let left = try await observer.query(
                        "SELECT count(*)::int8 FROM pg_stat_activity WHERE pid = ANY(\(pids.map(Int64.init))::int8[]::int4[])"
                    )[0].decode(Int64.self, at: 0)
                    if left == 0 { break }
                    try await Task.sleep(for: .milliseconds(20))
                }
                await observer.close()
                for _ in 0..<3 {
                    let value = try await pool.withConnection { try await $0.query("SELECT 42::int4")[0].decode(Int.self, at: 0) }
                    #expect(value == 42)
                }
                let now = try await pool.withConnection { await $0.backendPID }
                #expect(!pids.contains(now))
            }
        }
    }

    @Test func checkoutsWaitForRunAndFailOnceItEnds() async throws {
        try await TestDatabase.with { database in
            let pool = PostgresPool(configuration: database.configuration, maximumConnections: 1, logger: TestDatabase.logger)
            try await withThrowingTaskGroup(of: Int.self) { group in
                // Asked before the pool runs: served once it does.
                group.addTask { try await pool.withConnection { try await $0.query("SELECT 7::int4")[0].decode(Int.self, at: 0) } }
                try await Task.sleep(for: .milliseconds(100))
                #expect(await pool.openConnections == 0)
                group.addTask {
                    try await pool.run()
                    return 0
                }
                #expect(try await group.next() == 7)
                group.cancelAll()
                #expect(try await group.next() == 0)
            }
            #expect(await pool.openConnections == 0)
            let error = await #expect(throws: PostgresError.self) { try await pool.withConnection { _ in } }
            #expect(error?.code == .poolClosed)
        }
    }

    @Test func cancelledCheckoutLeavesTheQueue() async throws {
        try await TestDatabase.with { database in
            let pool = PostgresPool(
                configuration: database.configuration, maximumConnections: 1, checkoutTimeout: .seconds(60),
                logger: TestDatabase.logger)
            try await pool.withRunning { pool in
                try await pool.withConnection { _ in
                    let waiting = Task { try await pool.withConnection { _ in } }
                    try await Task.sleep(for: .milliseconds(100))
                    waiting.cancel()
                    let started = ContinuousClock.now
                    await #expect(throws: CancellationError.self) { try await waiting.value }
                    #expect(ContinuousClock.now - started < .seconds(5))
                }
            }
        }
    }

    @Test func listenerDeliversNotificationsAndSurvivesTermination() async throws {
        try await TestDatabase.with { database in
            let applicationName = "listener-\(UUID().uuidString.prefix(8))"
            var listenerConfiguration = database.configuration
            listenerConfiguration.set("application_name", applicationName)
            let channel = "compass \"test\" channel"
            let listener = PostgresListener(
                configuration: listenerConfiguration, channels: [channel], logger: TestDatabase.logger)
            let notifier = try await database.connect()

            var events = listener.makeAsyncIterator()
            #expect(try await events.next() == .listening(gapPossible: false))

            try await notifier.query("SELECT pg_notify(\(channel), \("first"))")
            guard case .notification(let first) = try await events.next() else {
                Issue.record("expected a notification")
                return
            }
            #expect(first.channel == channel)
            #expect(first.payload == "first")
            #expect(first.backendPID == (await notifier.backendPID))

            let terminated = try await notifier.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(applicationName)")
            #expect(terminated.count == 1)
            #expect(try await events.next() == .listening(gapPossible: true))

            try await notifier.query("SELECT pg_notify(\(channel), \("after reconnect"))")
            guard case .notification(let second) = try await events.next() else {
                Issue.record("expected a notification after reconnecting")
                return
            }
            #expect(second.payload == "after reconnect")
            await notifier.close()
        }
    }
}
