import CompassServer
import CompassTestSupport
import Foundation
import Postgres
import Testing

/// One user's slow or abandoned requests cannot hold the database for everyone else: per-role
/// statement timeouts, statements cancelled when their client hangs up, bounded pool waits.
@Suite("Requests cannot stall the worker")
struct RequestIsolationTests {
    /// A function that sleeps, callable by every API role.
    static func installSleeper(_ harness: ServerHarness) async throws {
        _ = try await harness.database.query(
            """
            CREATE FUNCTION public.sleep_for(seconds float8) RETURNS int LANGUAGE sql AS 'SELECT 1 FROM pg_sleep(seconds)';
            """)
        _ = try await harness.database.query("GRANT EXECUTE ON FUNCTION public.sleep_for(float8) TO anon, authenticated, service_role")
        _ = try await harness.database.query("NOTIFY pgrst, 'reload schema'")
        // The reload is asynchronous: wait until REST knows the function (a loaded machine can
        // take seconds), or a test's "slow" call would be a quick 404.
        let deadline = ContinuousClock.now + .seconds(30)
        let key = harness.keys.serviceRole
        while try await RawConnection.get(
            "/rest/v1/rpc/sleep_for?seconds=0", port: harness.port, headers: ["apikey": key, "Authorization": "Bearer \(key)"]) != 200 {
            guard ContinuousClock.now < deadline else { Issue.record("sleep_for never appeared in the schema cache"); return }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func headers(_ harness: ServerHarness, key: String) -> [String: String] {
        ["apikey": key, "Authorization": "Bearer \(key)"]
    }

    @Test func eachRoleRunsUnderItsOwnStatementTimeoutAndTheDatabasesOwnSettingWins() async throws {
        try await ServerHarness.with { harness in
            // Role settings are read with the schema cache, as PostgREST reads them: the sleeper's
            // reload picks this one up.
            _ = try await harness.database.query(
                "ALTER ROLE anon IN DATABASE \(unescaped: "\"\(harness.database.name)\"") SET statement_timeout = '300ms'")
            try await Self.installSleeper(harness)
            let started = ContinuousClock.now
            let anon = try await RawConnection.get(
                "/rest/v1/rpc/sleep_for?seconds=8", port: harness.port, headers: headers(harness, key: harness.keys.anon))
            #expect(anon == 500)  // 57014 canceling statement due to statement timeout
            #expect(ContinuousClock.now - started < .seconds(6))  // cut at 0.3 s, with room for a loaded machine
            // service_role has no timeout: the same call completes.
            let service = try await RawConnection.get(
                "/rest/v1/rpc/sleep_for?seconds=0.5", port: harness.port, headers: headers(harness, key: harness.keys.serviceRole))
            #expect(service == 200)
            let timeouts = try await harness.database.query(
                """
                SELECT r.rolname, s.setconfig::text FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole
                WHERE s.setdatabase = 0 AND r.rolname IN ('anon', 'authenticated') ORDER BY 1
                """
            ).map { try "\($0.decode(String.self, at: 0)) \($0.decode(String.self, at: 1))" }
            #expect(timeouts == ["anon {statement_timeout=3s,jit=off}", "authenticated {statement_timeout=8s,jit=off}"])
        }
    }

    @Test func eachRequestAppliesItsRolesOwnSettings() async throws {
        try await ServerHarness.with { harness in
            // JIT is off for the API roles (migration 0041: compiling ignores cancels); any setting a
            // user may change applies when set on the role, this database's own included.
            _ = try await harness.database.query(
                "ALTER ROLE anon IN DATABASE \(unescaped: "\"\(harness.database.name)\"") SET work_mem = '7MB'")
            // Applied after the exposed schema's search_path, as PostgREST applies them: the role's wins.
            _ = try await harness.database.query(
                "ALTER ROLE anon IN DATABASE \(unescaped: "\"\(harness.database.name)\"") SET search_path = public, auth")
            _ = try await harness.database.query(
                "CREATE FUNCTION public.setting_of(name text) RETURNS text LANGUAGE sql STABLE AS 'SELECT current_setting(name)'")
            _ = try await harness.database.query("GRANT EXECUTE ON FUNCTION public.setting_of(text) TO anon, service_role")
            try await Self.installSleeper(harness)  // reloads the schema cache, and waits for it
            func setting(_ name: String, key: String) async throws -> String {
                let connection = try RawConnection(port: harness.port)
                await connection.send(RawConnection.request("/rest/v1/rpc/setting_of?name=\(name)", headers: headers(harness, key: key)))
                let reply = await connection.readUntilClosed(timeout: .seconds(15)).text
                return String(reply.split(separator: "\r\n\r\n", maxSplits: 1).last ?? "")
            }
            let sessionJIT = try await harness.database.query("SELECT current_setting('jit')")[0].decode(String.self, at: 0)
            #expect(try await setting("jit", key: harness.keys.anon) == #""off""#)
            #expect(try await setting("work_mem", key: harness.keys.anon) == #""7MB""#)
            #expect(try await setting("search_path", key: harness.keys.anon) == #""public, auth""#)
            #expect(try await setting("jit", key: harness.keys.serviceRole) == "\"\(sessionJIT)\"")
        }
    }

    @Test func bodiesThatTrickleInHoldOnlyWhatTheySentOfTheBodyBudget() async throws {
        try await ServerHarness.with(adjust: { $0.http.maximumBufferedBodyBytes = 2_000_000 }) { harness in
            // Two clients announce a megabyte each and send 100 bytes: they hold 200 bytes, not the
            // whole budget (taking declared lengths at once, they did, and every other body got 503).
            var slow: [RawConnection] = []
            for _ in 0..<2 {
                let connection = try RawConnection(port: harness.port)
                await connection.send(
                    "POST /rest/v1/rpc/sleep_for HTTP/1.1\r\nHost: x\r\napikey: \(harness.keys.anon)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n" + String(repeating: " ", count: 100))
                slow.append(connection)
            }
            try await Task.sleep(for: .milliseconds(300))
            let connection = try RawConnection(port: harness.port)
            let body = #"{"email":"nobody@example.com","password":"wrong-password"}"#
            await connection.send(
                "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: x\r\napikey: \(harness.keys.anon)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            let reply = await connection.readUntilClosed(timeout: .seconds(15)).text
            #expect(RawConnection.status(of: reply) == 400, "\(reply.prefix(80))")  // invalid_credentials, not 503
            for connection in slow { connection.hangUp() }
        }
    }

    @Test func aStatementIsCancelledWhenItsClientHangsUp() async throws {
        try await ServerHarness.with { harness in
            try await Self.installSleeper(harness)
            let client = try await startSleeping(harness, seconds: 30)
            client.hangUp()
            #expect(try await Self.waitFor(harness, Self.sleeping(harness), toBe: 0, within: .seconds(20)))  // under the 30 s sleep, with room for a loaded machine
        }
    }

    @Test func aSaturatedPoolAnswers503WithRetryAfterWhileSignInAndHealthKeepAnswering() async throws {
        try await ServerHarness.with(adjust: {
            $0.poolSize = 1
            $0.poolCheckoutTimeout = .milliseconds(500)
        }) { harness in
            try await Self.installSleeper(harness)
            let slow = try await startSleeping(harness, seconds: 8)
            let waiting = try RawConnection(port: harness.port)
            await waiting.send(RawConnection.request("/rest/v1/schools?select=id", headers: headers(harness, key: harness.keys.serviceRole)))
            let reply = await waiting.readUntilClosed(timeout: .seconds(6)).text
            #expect(RawConnection.status(of: reply) == 503)
            #expect(reply.lowercased().contains("retry-after: 1"))
            #expect(try await RawConnection.get("/health", port: harness.port, headers: [:], timeout: .seconds(2)) == 200)
            let signIn = try RawConnection(port: harness.port)
            let body = #"{"email":"sofia.rivera@example.com","password":"compass-demo-password"}"#
            await signIn.send(
                "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: x\r\nConnection: close\r\napikey: \(harness.keys.anon)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            #expect(RawConnection.status(of: await signIn.readUntilClosed(timeout: .seconds(6)).text) == 200)
            _ = slow
        }
    }

    @Test func otherConnectionsAreAnsweredWhileOnesStatementRuns() async throws {
        try await ServerHarness.with { harness in
            try await Self.installSleeper(harness)
            let slow = try await startSleeping(harness, seconds: 8)
            // A connection's requests run on its event loop, and connections are dealt out over the
            // loops: twice as many connections as processors puts some on the sleeping request's
            // loop, which a handler blocking its thread while it waits would hold up for 8 s.
            for _ in 0..<(2 * ProcessInfo.processInfo.activeProcessorCount) {
                let started = ContinuousClock.now
                let status = try await RawConnection.get(
                    "/rest/v1/schools?select=id&limit=1", port: harness.port, headers: headers(harness, key: harness.keys.serviceRole),
                    timeout: .seconds(6))
                #expect(status == 200)
                #expect(ContinuousClock.now - started < .seconds(4))  // well under the sleep, with room for a loaded machine
            }
            // The sleeper was still running throughout.
            #expect(try await harness.database.query(Self.sleeping(harness))[0].decode(Int.self, at: 0) == 1)
            _ = slow
        }
    }

    /// A connection whose `sleep_for(seconds)` call is running on the server (the sleeper installed).
    func startSleeping(_ harness: ServerHarness, seconds: Int) async throws -> RawConnection {
        let client = try RawConnection(port: harness.port)
        await client.send(RawConnection.request(
            "/rest/v1/rpc/sleep_for?seconds=\(seconds)", headers: headers(harness, key: harness.keys.serviceRole)))
        #expect(try await Self.waitFor(harness, Self.sleeping(harness), toBe: 1, within: .seconds(20)))
        return client
    }

    /// How many `sleep_for` calls are running in the test's database.
    static func sleeping(_ harness: ServerHarness) -> PostgresQuery {
        """
        SELECT count(*)::int FROM pg_stat_activity
        WHERE datname = \(harness.database.name) AND query LIKE '%sleep_for%' AND state = 'active' AND pid <> pg_backend_pid()
        """
    }

    /// Polls `query` (one integer) until it equals `expected`.
    static func waitFor(
        _ harness: ServerHarness, _ query: PostgresQuery, toBe expected: Int, within timeout: Duration = .seconds(10)
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await harness.database.query(query)[0].decode(Int.self, at: 0) == expected { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}
