import CompassTestSupport
import CompassTokens
import Foundation
import Logging
import Testing

@testable import CompassRealtime
@testable import Postgres

/// A database with the demo data, a running change source and dispatcher, and helpers to
/// subscribe and write — the fan-out without any sockets.
struct FanOutHarness {
    let database: TestDatabase
    let realtime: RealtimeDatabase
    let registry: SubscriptionRegistry
    let catalog: RealtimeCatalog
    let dispatcher: RealtimeDispatcher
    let metrics: RealtimeMetrics
    /// The LISTEN connection's application_name, to find (and kill) it.
    let listenerApplicationName: String
    let writer: PostgresConnection

    /// Runs `body` with the source running; tears everything down afterwards.
    static func with(
        pageSize: Int? = nil, tableLifetime: Duration = .seconds(5), _ body: (FanOutHarness) async throws -> Void
    ) async throws {
        try await TestDatabase.with(demoData: true) { database in
            let writer = try await database.connect()
            try await running(on: database, writer: writer, pageSize: pageSize, tableLifetime: tableLifetime, body)
            await writer.close()
        }
    }

    /// Runs `body` with another worker's fan-out (own pool, LISTEN connection, registry)
    /// on the same database, as a second `compass-worker` process would be.
    func withSecondWorker(_ body: (FanOutHarness) async throws -> Void) async throws {
        try await Self.running(on: database, writer: writer, pageSize: nil, tableLifetime: .seconds(5), body)
    }

    /// Starts a source and dispatcher on `database`, runs `body`, stops them.
    private static func running(
        on database: TestDatabase, writer: PostgresConnection, pageSize: Int?, tableLifetime: Duration,
        _ body: (FanOutHarness) async throws -> Void
    ) async throws {
        let realtime = RealtimeDatabase(configuration: database.configuration, logger: TestDatabase.logger)
        let registry = SubscriptionRegistry()
        let catalog = RealtimeCatalog(database: realtime, tableLifetime: tableLifetime)
        let metrics = RealtimeMetrics()
        let dispatcher = RealtimeDispatcher(
            registry: registry, catalog: catalog, database: realtime, metrics: metrics, logger: TestDatabase.logger)
        let applicationName = "rt-listen-\(UUID().uuidString.prefix(8))"
        var listenerConfiguration = database.configuration
        listenerConfiguration.set("application_name", applicationName)
        var configuredSource = SnapshotChangeSource(
            database: realtime, listenerConfiguration: listenerConfiguration, logger: TestDatabase.logger)
        if let pageSize { configuredSource.pageSize = pageSize }
        let source = configuredSource
        let harness = FanOutHarness(
            database: database, realtime: realtime, registry: registry, catalog: catalog, dispatcher: dispatcher,
            metrics: metrics, listenerApplicationName: applicationName, writer: writer)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await realtime.pool.run() }
            group.addTask { try await source.run(into: dispatcher) }
            let deadline = ContinuousClock.now + .seconds(10)
            while !dispatcher.isSourceConnected {
                guard ContinuousClock.now < deadline else { throw HarnessError("the source never connected") }
                try await Task.sleep(for: .milliseconds(20))
            }
            do {
                try await body(harness)
            } catch {
                group.cancelAll()
                throw error
            }
            group.cancelAll()
        }
    }

    /// Joins a channel the way the WebSocket layer does and returns the client's queue.
    func subscribe(
        _ claims: AccessClaims, _ bindings: [RealtimeJSON], topic: String = "realtime:test", capacity: Int = 10_000
    ) async throws -> ClientOutbox {
        let outbox = try #require(registry.addClient(version: .v1, capacity: capacity))
        var resolved: [TableBinding] = []
        for binding in bindings {
            resolved += try await catalog.resolve(PostgresChangesBinding(requested: binding)).get()
        }
        registry.join(ChannelRecord(topic: topic, joinRef: "1", claims: claims, bindings: resolved, outbox: outbox), queueing: [])
        return outbox
    }

    /// Inserts an interaction logged by `athlete` and returns its id.
    @discardableResult
    func insertInteraction(by athlete: String, content: String = "hello", on connection: PostgresConnection? = nil)
        async throws -> String
    {
        let result = try await (connection ?? writer).query(
            """
            INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction, content)
            VALUES (\(Demo.family(of: athlete))::uuid, \(athlete)::uuid, \(athlete)::uuid, 'email', 'outbound', \(content))
            RETURNING id::text
            """)
        return try result[0].decode(String.self, at: 0)
    }

    /// Terminates the LISTEN connection; returns how many backends were ended.
    @discardableResult
    func killListenConnection() async throws -> Int {
        let result = try await writer.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(listenerApplicationName)")
        return result.count
    }
}

/// Reading what a client was sent.
extension ClientOutbox {
    /// The change events queued within `timeout`, stopping early once `count` arrived.
    /// The `expected` events, waited for as long as a loaded machine may need, then any more
    /// that arrive within `quiet` (so a test still sees an event that should not have come).
    func changeEvents(expecting expected: Int, within timeout: Duration = .seconds(20), quiet: Duration = .seconds(1))
        async throws -> [RealtimeJSON]
    {
        let events = try await changeEvents(count: expected, timeout: timeout)
        guard events.count == expected else { return events }
        return try await events + changeEvents(count: 1, timeout: quiet)
    }

    func changeEvents(count: Int, timeout: Duration = .seconds(10)) async throws -> [RealtimeJSON] {
        var events: [RealtimeJSON] = []
        let deadline = ContinuousClock.now + timeout
        while events.count < count, ContinuousClock.now < deadline {
            guard let work = await nextWork(until: deadline) else { break }
            guard case .frames(let frames) = work else { break }
            for frame in frames {
                let message = try RealtimeCodec.decode(frame.text)
                if message.event == RealtimeEvent.postgresChanges { events.append(message.payload) }
            }
        }
        return events
    }

    /// Waits for the next work item, or nil at the deadline.
    func nextWork(until deadline: ContinuousClock.Instant) async -> Work? {
        await withTaskGroup(of: Work?.self) { group in
            group.addTask { await self.next() }
            group.addTask {
                try? await Task.sleep(until: deadline)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

extension RealtimeJSON {
    /// `data.record.<column>` of a change event payload, as a string.
    func recordValue(_ column: String) -> String? {
        self["data"]?["record"]?[column]?.stringValue
    }
}

/// The value of an unlabelled metric in Prometheus text.
func metricValue(_ text: String, _ name: String) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
        return Double(line.split(separator: " ").last ?? "")
    }
    return nil
}
