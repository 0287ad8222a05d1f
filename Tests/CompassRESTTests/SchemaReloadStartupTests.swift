import CompassHTTP
import CompassREST
import CompassTestSupport
import Foundation
import Postgres
import Testing

/// The worker's first request can load the schema cache before the reload service LISTENs; a
/// change made in between notified no one, so the service reloads once it listens.
@Suite("Schema reload at startup")
struct SchemaReloadStartupTests {
    @Test("a table created after the first load but before the first LISTEN is served once the service listens")
    func changeBeforeTheFirstListen() async throws {
        try await Self.withAPI(poolSize: 2) { api, database in
            #expect(try await api.store.current().tables["startup_probe"] == nil)
            let loaded = await api.store.generation
            _ = try await database.query("CREATE TABLE public.startup_probe (id int PRIMARY KEY)")
            _ = try await database.query("NOTIFY pgrst, 'reload schema'")  // before anyone listens: lost
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await api.reloadService.run() }
                let deadline = ContinuousClock.now + .seconds(10)
                while await api.store.generation == loaded, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                #expect(try await api.store.current().tables["startup_probe"] != nil)
                tasks.cancelAll()
            }
        }
    }

    @Test("a burst of notifications makes a reload or two, not one each")
    func notificationsWhileReloadingCoalesce() async throws {
        try await Self.withAPI(poolSize: 2) { api, database in
            _ = try await api.store.current()
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await api.reloadService.run() }
                // The service's first LISTEN reloads once (a request loaded the cache before it).
                let deadline = ContinuousClock.now + .seconds(10)
                while await api.store.generation < 2, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                let before = await api.store.generation
                // Forty notifications, each in its own transaction (Postgres folds repeats within one).
                for _ in 0..<40 { _ = try await database.query("NOTIFY pgrst, 'reload schema'") }
                // Wait until the reloads stop.
                var last = await api.store.generation
                while true {
                    try await Task.sleep(for: .seconds(1))
                    let now = await api.store.generation
                    if now == last { break }
                    last = now
                }
                let reloads = last - before
                #expect(reloads >= 1)
                #expect(reloads < 10, "\(reloads) reloads for 40 notifications")
                tasks.cancelAll()
            }
        }
    }

    @Test("requests that arrive while the first load runs wait for it rather than each loading")
    func coldRequestsShareTheFirstLoad() async throws {
        try await Self.withAPI(poolSize: 4) { api, database in
            try await withThrowingTaskGroup(of: Int.self) { requests in
                for _ in 0..<10 { requests.addTask { try await api.store.current().tables.count } }
                for try await count in requests { #expect(count > 0) }
            }
            #expect(await api.store.generation == 1)
        }
    }

    /// A REST API on a fresh demo database, its pool running, with no reload service yet.
    private static func withAPI(poolSize: Int, _ body: (RESTAPI, TestDatabase) async throws -> Void) async throws {
        try await TestDatabase.with(demoData: true) { database in
            let context = try await ServerContext(
                postgres: database.configuration, jwtSecret: RESTHarness.secret, poolSize: poolSize, logger: TestDatabase.logger)
            let api = RESTAPI(context: context)
            try await context.pool.withRunning { _ in try await body(api, database) }
        }
    }
}
