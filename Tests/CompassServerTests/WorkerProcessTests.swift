import CompassTestSupport
import CompassTokens
import Foundation
import Testing

/// compass-worker as operators run it (a process, over HTTP, against a real Postgres): metrics
/// for every API, request ids in replies and logs, JSON logs, refusals no route makes, startup
/// errors that name what to change, and a graceful stop that lets requests finish.
@Suite("compass-worker as a process: metrics, request ids, logs, lifecycle", .serialized)
struct WorkerProcessTests {
    static let keys = try! APIKeys(secret: WorkerProcess.secret)
    static let sofiaEmail = "sofia.rivera@example.com"

    static func signIn(_ worker: WorkerProcess, password: String, requestID: String? = nil) async throws -> Int {
        var headers = ["apikey": keys.anon, "Content-Type": "application/json"]
        headers["X-Request-Id"] = requestID
        return try await worker.request(
            "/auth/v1/token?grant_type=password", method: "POST", headers: headers,
            body: #"{"email": "\#(sofiaEmail)", "password": "\#(password)"}"#).status
    }

    /// The value of the one sample of `metric` whose line contains every one of `labels`.
    static func sample(_ metrics: String, _ metric: String, _ labels: [String]) -> Double? {
        metrics.split(separator: "\n")
            .first { $0.hasPrefix(metric + "{") && labels.allSatisfy($0.contains) }
            .flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    }

    @Test func metricsCoverEveryAPIByRouteTemplateAndRepliesCarryARequestID() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let worker = try await WorkerProcess.start(databaseURL: database.configuration.connectionString)
            defer { worker.kill() }
            let read = try await worker.request(
                "/rest/v1/interactions?select=id&limit=1", headers: ["apikey": Self.keys.anon, "X-Request-Id": "trace-42.a:b"])
            #expect(read.status == 200)
            #expect(read.headers["x-request-id"] == "trace-42.a:b", "a sane incoming id is honoured")
            let second = try await worker.request("/rest/v1/schools?select=id", headers: ["apikey": Self.keys.anon, "X-Request-Id": String(repeating: "x", count: 129)])
            let generated = try #require(second.headers["x-request-id"])
            #expect(generated.count == 32 && generated.allSatisfy(\.isHexDigit), "an unusable id is replaced: \(generated)")
            #expect(try await worker.request("/api/v1/feed", headers: ["apikey": Self.keys.anon]).status == 401)
            #expect(try await Self.signIn(worker, password: "wrong-password") == 400)
            #expect(try await Self.signIn(worker, password: "compass-demo-password") == 200)

            let metrics = try await worker.get("/metrics").body
            let rest = Self.sample(metrics, "compass_http_requests_total", [#"api="rest""#, #"route="/rest/v1/{table}""#, #"status="200""#])
            #expect(rest == 2, "both REST reads under one route template, not two paths:\n\(metrics)")
            #expect(Self.sample(metrics, "compass_http_requests_total", [#"api="api""#, #"status="401""#]) == 1)
            #expect(Self.sample(metrics, "compass_http_request_duration_seconds_count", [#"api="rest""#]) == 2)
            #expect(Self.sample(metrics, "compass_auth_sign_ins_total", [#"outcome="failed""#]) == 1)
            #expect(Self.sample(metrics, "compass_auth_sign_ins_total", [#"outcome="succeeded""#]) == 1)
            #expect(Self.sample(metrics, "compass_db_pool_connections", [#"pool="api""#, #"state="idle""#]) ?? 0 >= 1)
            #expect(Self.sample(metrics, "compass_db_pool_waiting", [#"pool="auth""#]) == 0)
            #expect(Self.sample(metrics, "compass_db_prepared_statements_total", [#"result="miss""#]) ?? 0 >= 1)
            #expect(metrics.contains("realtime_clients"), "realtime's metrics are still there")
            #expect(!metrics.contains("interactions?"), "no raw paths or queries as labels")
            _ = try await worker.stop()
        }
    }

    @Test func signInsPastTheBudgetAreCountedAsRateLimited() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let worker = try await WorkerProcess.start(
                databaseURL: database.configuration.connectionString, environment: ["COMPASS_AUTH_RATE_LIMIT_EMAIL": "1"])
            defer { worker.kill() }
            #expect(try await Self.signIn(worker, password: "wrong-password") == 400)
            #expect(try await Self.signIn(worker, password: "wrong-password") == 429)
            let metrics = try await worker.get("/metrics").body
            #expect(Self.sample(metrics, "compass_auth_sign_ins_total", [#"outcome="failed""#]) == 1)
            #expect(Self.sample(metrics, "compass_auth_sign_ins_total", [#"outcome="rate_limited""#]) == 1)
            _ = try await worker.stop()
        }
    }

    @Test func jsonLogLinesCarryTheRequestIDOfTheRequestThatCausedThem() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let worker = try await WorkerProcess.start(
                databaseURL: database.configuration.connectionString,
                environment: ["COMPASS_LOG_FORMAT": "json", "LOG_LEVEL": "debug"])
            defer { worker.kill() }
            // Auth's own pool opens its first connection for this sign-in and logs it at debug,
            // through the pool's logger, not the request's: the id still reaches the line.
            #expect(try await Self.signIn(worker, password: "wrong-password", requestID: "sign-in-7") == 400)
            _ = try await worker.stop()
            let lines = worker.process.errorOutput.split(separator: "\n")
            let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(objects.count == lines.count, "every line is one JSON object:\n\(lines.prefix(5).joined(separator: "\n"))")
            let connected = objects.filter { $0["message"] as? String == "connected" && $0["request_id"] as? String == "sign-in-7" }
            #expect(!connected.isEmpty, "\(lines.joined(separator: "\n"))")
            #expect(objects.allSatisfy { $0["time"] is String && $0["level"] is String })
            #expect(!worker.process.errorOutput.contains("wrong-password"))
        }
    }

    @Test func unsupportedMethodsAre405WithAllowAndUnknownAPIPathsAJSON404() async throws {
        try await TestDatabase.with { database in
            let worker = try await WorkerProcess.start(databaseURL: database.configuration.connectionString)
            defer { worker.kill() }
            let trace = try await worker.request("/rest/v1/interactions", method: "TRACE")
            #expect(trace.status == 405)
            #expect(trace.headers["allow"] == "GET, HEAD, POST, PUT, PATCH, DELETE")
            #expect(trace.headers["x-request-id"] != nil)
            let unknown = try await worker.request("/api/v1/nothing-here", headers: ["apikey": Self.keys.anon])
            #expect(unknown.status == 404)
            let body = try #require(JSONSerialization.jsonObject(with: Data(unknown.body.utf8)) as? [String: String])
            #expect(body["code"] == "not_found")
            #expect(body["message"]?.contains("/api/openapi.json") == true)
            let wrongMethod = try await worker.request("/api/v1/feed", method: "PUT", headers: ["apikey": Self.keys.anon])
            #expect(wrongMethod.status == 405, "a path /api serves for other methods")
            #expect(wrongMethod.headers["allow"] == "GET")
            // Every other unrouted path is answered in its API's words, never an empty 404.
            let rest = try await worker.request("/rest/v1/", method: "POST", headers: ["apikey": Self.keys.anon])
            #expect(rest.status == 404)
            #expect(rest.body.contains(#""code":"PGRST125""#), "\(rest.body)")
            let auth = try await worker.request("/auth/v1/nothing-here", headers: ["apikey": Self.keys.anon])
            #expect(auth.status == 404)
            #expect(auth.body == "404 page not found\n", "GoTrue's own words")
            let elsewhere = try await worker.request("/nothing-here")
            #expect(elsewhere.status == 404)
            #expect(elsewhere.body.contains(#""code":"not_found""#), "\(elsewhere.body)")
            _ = try await worker.stop()
        }
    }

    @Test func aPortInUseNamesTheHostThePortAndTheVariable() async throws {
        try await TestDatabase.with { database in
            let first = try await WorkerProcess.start(databaseURL: database.configuration.connectionString)
            defer { first.kill() }
            let second = try await ChildProcess.run(
                [try WorkerProcess.binary().path],
                environment: [
                    "DATABASE_URL": database.configuration.connectionString, "COMPASS_JWT_SECRET": WorkerProcess.secret,
                    "COMPASS_WORKER_HOST": "127.0.0.1", "COMPASS_WORKER_PORT": String(first.port),
                ], timeout: .seconds(30))
            #expect(second.code == 1)
            #expect(second.error.contains("cannot listen on 127.0.0.1:\(first.port): the address is already in use"), "\(second.error)")
            #expect(second.error.contains("COMPASS_WORKER_PORT"))
            _ = try await first.stop()
        }
    }

    @Test func startupErrorsSayWhatIsWrongWithoutTheSecrets() async throws {
        let binary = try WorkerProcess.binary().path
        let badURL = try await ChildProcess.run(
            [binary], environment: ["DATABASE_URL": "postgresql://app:hunter2@db/compass?sslmod=require", "COMPASS_JWT_SECRET": WorkerProcess.secret])
        #expect(badURL.code == 2)
        #expect(badURL.error.contains(#"invalid URI query parameter: "sslmod""#), "\(badURL.error)")
        #expect(!badURL.error.contains("hunter2"))
        let shortSecret = try await ChildProcess.run(
            [binary], environment: ["DATABASE_URL": "postgresql://localhost/compass", "COMPASS_JWT_SECRET": "short-and-secret"])
        #expect(shortSecret.code == 2)
        #expect(shortSecret.error.contains("HS256 needs at least 32 bytes"), "\(shortSecret.error)")
        #expect(!shortSecret.error.contains("short-and-secret"))
        let version = try await ChildProcess.run([binary, "--version"])
        #expect(version.code == 0)
        #expect(version.output.hasPrefix("compass-worker "))
    }

    @Test func sigtermLetsARequestInFlightFinish() async throws {
        try await TestDatabase.with(demoData: true) { database in
            _ = try await database.query(
                """
                CREATE FUNCTION public.slow_answer(seconds double precision) RETURNS integer
                    LANGUAGE plpgsql AS 'BEGIN PERFORM pg_sleep(seconds); RETURN 42; END'
                """)
            _ = try await database.query("GRANT EXECUTE ON FUNCTION public.slow_answer(double precision) TO anon")
            let worker = try await WorkerProcess.start(databaseURL: database.configuration.connectionString)
            defer { worker.kill() }
            try await worker.waitFor("/ready", status: 200)
            let started = ContinuousClock.now
            async let slow = worker.request(
                "/rest/v1/rpc/slow_answer", method: "POST", headers: ["apikey": Self.keys.anon, "Content-Type": "application/json"],
                body: #"{"seconds": 1.5}"#)
            try await Task.sleep(for: .milliseconds(400))
            worker.process.signal(SIGTERM)
            let reply = try await slow
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.body == "42")
            #expect(ContinuousClock.now - started >= .seconds(1.5))
            #expect(try await worker.process.exitCode(timeout: .seconds(20)) == 0)
            await #expect(throws: (any Error).self, "it no longer accepts requests") {
                try await worker.request("/health", timeout: 2)
            }
        }
    }
}
