import CompassTestSupport
import CompassTokens
import Foundation
import Testing

/// `/ready` on a real compass-worker process: it follows its database down and back, and names
/// a schema behind the worker's migrations, while `/health` (liveness) stays 200.
@Suite("compass-worker's /ready, through a real process", .serialized)
struct ReadinessTests {
    static func parts(_ body: String) throws -> [String: String] {
        try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
    }

    @Test func readinessFlipsWhenPostgresStopsAndComesBack() async throws {
        let cluster = try PrivateCluster.start()
        defer { cluster.remove() }
        let migrated = try await CompassBinary.run(["migrate", "--database-url", cluster.url], database: nil)
        #expect(migrated.status == 0, "\(migrated.stderr)")
        let worker = try await WorkerProcess.start(databaseURL: cluster.url)
        defer { worker.kill() }

        let ready = try Self.parts(try await worker.waitFor("/ready", status: 200))
        #expect(ready == ["status": "ready", "database": "ok", "migrations": "ok", "listen": "ok"])
        #expect(try await Self.concurrentReads(worker, count: 4) == [200, 200, 200, 200])  // fills the REST pool

        try cluster.stop()
        let down = try Self.parts(try await worker.waitFor("/ready", status: 503))
        #expect(down["status"] == "unready")
        #expect(down["failing"] == "database")
        #expect(down["database"]?.hasPrefix("unreachable") == true)
        #expect(try await worker.get("/health").status == 200, "liveness does not follow the database")

        try cluster.restart()
        let back = try Self.parts(try await worker.waitFor("/ready", status: 200, timeout: .seconds(30)))
        #expect(back["listen"] == "ok")
        // The pooled connections died with the old server: none of them costs a request its answer.
        #expect(try await Self.concurrentReads(worker, count: 4) == [200, 200, 200, 200])
        #expect(try await Self.concurrentReads(worker, count: 1) == [200])
        #expect(try await worker.stop() == 0)
    }

    /// `count` REST reads at once; their statuses.
    static func concurrentReads(_ worker: WorkerProcess, count: Int) async throws -> [Int] {
        let headers = ["apikey": try APIKeys(secret: WorkerProcess.secret).serviceRole]
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<count {
                group.addTask { try await worker.request("/rest/v1/schools?select=id&limit=1", headers: headers).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aKilledProbeConnectionIsReplacedWithoutReportingTheDatabaseDown() async throws {
        try await TestDatabase.with { database in
            let worker = try await WorkerProcess.start(databaseURL: database.configuration.connectionString)
            defer { worker.kill() }
            try await worker.waitFor("/ready", status: 200)
            let killed = try await database.query(
                """
                SELECT count(pg_terminate_backend(pid))::int8 FROM pg_stat_activity
                 WHERE datname = current_database() AND query = 'SELECT compass.schema_version()' AND pid <> pg_backend_pid()
                """)[0].decode(Int64.self, at: 0)
            #expect(killed == 1)
            try await Task.sleep(for: .milliseconds(100))  // the backend is gone before the next probe
            let reply = try await worker.get("/ready")
            #expect(reply.status == 200, "\(reply.body)")
            _ = try await worker.stop()
        }
    }

    @Test func aSchemaBehindTheWorkersMigrationsIsNamed() async throws {
        try await TestDatabase.with { database in
            _ = try await database.query("DELETE FROM compass.schema_migrations WHERE version = (SELECT max(version) FROM compass.schema_migrations)")
            let worker = try await WorkerProcess.start(databaseURL: database.configuration.connectionString)
            defer { worker.kill() }
            let reply = try await worker.get("/ready")
            #expect(reply.status == 503)
            let parts = try Self.parts(reply.body)
            #expect(parts["failing"] == "migrations")
            #expect(parts["migrations"]?.contains("run: compass migrate") == true, "\(parts)")
            #expect(parts["database"] == "ok")
            _ = try await worker.stop()
        }
    }

    @Test func aWorkerStartedBeforeMigrationsWaitsForThemAndBecomesReady() async throws {
        try await TestDatabase.withEmpty { database in
            let worker = try await WorkerProcess.start(databaseURL: database.configuration.connectionString)
            defer { worker.kill() }
            let waiting = try Self.parts(try await worker.waitFor("/ready", status: 503))
            #expect(waiting["failing"] == "migrations")
            #expect(waiting["migrations"]?.contains("run: compass migrate") == true, "\(waiting)")
            try await Task.sleep(for: .seconds(1))
            #expect(worker.process.exitCodeIfExited() == nil, "still running: \(worker.process.errorOutput.suffix(1500))")
            let migrated = try await CompassBinary.run(["migrate"], database: database)
            #expect(migrated.status == 0, "\(migrated.stderr)")
            try await worker.waitFor("/ready", status: 200, timeout: .seconds(30))
            #expect(try await worker.stop() == 0)
        }
    }
}
