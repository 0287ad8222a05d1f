import CompassAuth
import CompassHTTP
import CompassServer
import Testing

/// Behind a load balancer every request comes from its address: the per-address sign-in budget
/// must key on the client the balancer names, and only when the balancer is trusted.
@Suite("X-Forwarded-For from trusted proxies", .serialized)
struct TrustedProxyTests {
    @Test func theClientIsTheRightMostForwardedHopThatIsNotAProxy() throws {
        let proxies = try TrustedProxies("127.0.0.1, 10.0.0.0/8, fd00::/8")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["198.51.100.1, 203.0.113.7"]) == "203.0.113.7")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["203.0.113.7", "10.9.9.9"]) == "203.0.113.7")
        #expect(proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["2001:db8::1, fd00::5"]) == "2001:db8::1")
        // An untrusted peer is the client, whatever it claims.
        #expect(proxies.clientAddress(peer: "192.0.2.9", forwardedFor: ["203.0.113.7"]) == "192.0.2.9")
        // No header, or garbage in it: the last trustworthy hop.
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: []) == "10.1.2.3")
        #expect(proxies.clientAddress(peer: "10.1.2.3", forwardedFor: ["203.0.113.7, not-an-address"]) == "10.1.2.3")
        #expect(!TrustedProxies.none.trusts("127.0.0.1"))
        #expect(proxies.trusts("10.255.0.1") && !proxies.trusts("11.0.0.1"))
    }

    @Test(arguments: ["10.0.0.0/33", "localhost", "1.2.3.4/x", "::1/129"])
    func aBadEntryIsRefusedByName(_ entry: String) {
        #expect {
            try ServerConfiguration(environment: [
                "DATABASE_URL": "postgresql://localhost/compass", "COMPASS_JWT_SECRET": "a-secret-of-32-characters-or-more!!",
                "COMPASS_TRUSTED_PROXIES": "127.0.0.1, \(entry)",
            ])
        } throws: { error in
            "\(error)".contains("COMPASS_TRUSTED_PROXIES") && "\(error)".contains(entry)
        }
    }

    @Test func theListenURLDefaultsToTheDatabaseAndCanGoAroundAPooler() throws {
        let base = ["DATABASE_URL": "postgresql://pooler:6432/compass", "COMPASS_JWT_SECRET": "a-secret-of-32-characters-or-more!!"]
        #expect(try ServerConfiguration(environment: base).listener.port == "6432")
        let direct = try ServerConfiguration(environment: base.merging(["COMPASS_LISTEN_DATABASE_URL": "postgresql://db:5432/compass"]) { $1 })
        #expect(direct.listener.port == "5432")
        #expect(direct.database.port == "6432")
        #expect {
            try ServerConfiguration(environment: base.merging(["COMPASS_LISTEN_DATABASE_URL": "mysql://nope"]) { $1 })
        } throws: { error in
            (error as? ConfigurationError)?.variable == "COMPASS_LISTEN_DATABASE_URL"
        }
    }

    /// Two clients behind one trusted balancer have a budget each; an untrusted peer's header is ignored.
    @Test func signInBudgetsKeyOnTheForwardedClient() async throws {
        var auth = AuthConfiguration()
        auth.failedSignInsPerAddress = 2
        auth.failedSignInsPerEmail = 100
        for trusted in [true, false] {
            let proxies = trusted ? try TrustedProxies("127.0.0.1") : .none
            try await ServerHarness.with(adjust: { $0.trustedProxies = proxies }, auth: auth) { harness in
                var statuses: [Int?] = []
                for client in ["203.0.113.1", "203.0.113.1", "203.0.113.1", "203.0.113.2"] {
                    statuses.append(try await Self.signIn(harness, from: client))
                }
                // A third failure from one client is over its budget; another client behind the
                // same balancer has a budget of its own only if the balancer is trusted.
                #expect(statuses == [400, 400, 429, trusted ? 400 : 429])
            }
        }
    }

    /// One client keeping slow reads in flight holds at most half the pool: another client behind
    /// the same balancer is answered at once rather than after them.
    @Test func oneClientHoldsAtMostHalfThePool() async throws {
        try await ServerHarness.with(adjust: { $0.trustedProxies = try! TrustedProxies("127.0.0.1"); $0.poolSize = 4 }) { harness in
            let setup = try await harness.database.connect()
            try await setup.executeScript(
                unsafeSQL: """
                    CREATE FUNCTION public.rest_slow() RETURNS int LANGUAGE sql STABLE AS 'SELECT 1 FROM pg_sleep(2)';
                    GRANT EXECUTE ON FUNCTION public.rest_slow() TO anon;
                    NOTIFY pgrst, 'reload schema';
                    """)
            await setup.close()
            try await Task.sleep(for: .milliseconds(500))
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: Int?.self) { group in
                for _ in 0..<4 { group.addTask { try await Self.get(harness, "/rest/v1/rpc/rest_slow", from: "203.0.113.7") } }
                try await Task.sleep(for: .milliseconds(300))
                // The other client's read does not wait for the slow ones.
                let other = try await Self.get(harness, "/rest/v1/schools?select=id&limit=1", from: "198.51.100.2")
                #expect(other == 200)
                #expect(ContinuousClock.now - started < .milliseconds(1500), "answered before the slow calls ended")
                for try await status in group { #expect(status == 200) }
            }
            // The busy client's own calls queued behind each other: two rounds of two.
            #expect(ContinuousClock.now - started >= .seconds(4))
        }
    }

    /// A GET forwarded for `client`; the reply's status.
    static func get(_ harness: ServerHarness, _ target: String, from client: String) async throws -> Int? {
        let connection = try RawConnection(port: harness.port)
        await connection.send(
            "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\napikey: \(harness.keys.anon)\r\nX-Forwarded-For: \(client)\r\n\r\n")
        return RawConnection.status(of: await connection.readUntilClosed(timeout: .seconds(20)).text)
    }

    /// A wrong-password sign-in forwarded for `client`; the reply's status.
    static func signIn(_ harness: ServerHarness, from client: String) async throws -> Int? {
        let connection = try RawConnection(port: harness.port)
        let body = #"{"email":"sofia.rivera@example.com","password":"wrong-password"}"#
        await connection.send(
            "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: x\r\nConnection: close\r\napikey: \(harness.keys.anon)\r\n"
                + "X-Forwarded-For: \(client)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        return RawConnection.status(of: await connection.readUntilClosed(timeout: .seconds(10)).text)
    }
}
