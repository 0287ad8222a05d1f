import CompassTestSupport
import Foundation
import Postgres
import Testing

/// Passwords, tokens and the JWT secret never reach a log line or an error reply, even when the
/// database goes away in the middle of a sign-in and a refresh, with every log level on.
@Suite("Secrets stay out of logs and replies")
struct LogSafetyTests {
    static let email = "sofia.rivera@example.com"
    static let password = "compass-demo-password"

    @Test func theDatabaseDyingMidRequestLeaksNoSecret() async throws {
        let log = CapturedLog()
        try await ServerHarness.with(logger: log.logger()) { harness in
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/auth_calls.py").path
            func calls(_ extra: [String] = []) async throws -> [(status: Int, body: String)] {
                let run = try await ChildProcess.run(
                    ["/usr/bin/env", "python3", script, harness.url, harness.keys.anon, Self.email, Self.password] + extra,
                    timeout: .seconds(90))
                #expect(run.code == 0, "\(run.error.suffix(2000))")
                let replies = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[Any]])
                return replies.map { ($0[0] as? Int ?? 0, $0[1] as? String ?? "") }
            }
            let signedIn = try #require(try await calls().first)
            #expect(signedIn.status == 200)
            let session = try #require(try JSONSerialization.jsonObject(with: Data(signedIn.body.utf8)) as? [String: Any])
            let access = try #require(session["access_token"] as? String)
            let refresh = try #require(session["refresh_token"] as? String)

            // Hold auth.users so the next sign-in and refresh wait inside their transactions, then
            // end the worker's waiting sessions: both requests fail half-way.
            let blocker = try await harness.database.connect()
            try await blocker.query("BEGIN")
            try await blocker.query("LOCK TABLE auth.users IN ACCESS EXCLUSIVE MODE")
            let pending = Task { try await calls([refresh]) }
            // Both requests, or whichever was caught within two seconds of the first.
            var deadline = ContinuousClock.now + .seconds(20)
            var terminated = 0
            while terminated < 2, ContinuousClock.now < deadline {
                if terminated == 1 { deadline = min(deadline, ContinuousClock.now + .seconds(2)) }
                let waiting = try await blocker.query(
                    """
                    SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                     WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'
                    """)
                terminated += waiting.count
                try await Task.sleep(for: .milliseconds(20))
            }
            try await blocker.query("ROLLBACK")
            await blocker.close()
            #expect(terminated >= 1, "no request was caught waiting")
            let failed = try await pending.value
            #expect(failed.contains { $0.status >= 500 }, "\(failed)")

            let secrets = [Self.password, access, refresh, ServerHarness.secret]
            for reply in failed {
                for secret in secrets { #expect(!reply.body.contains(secret), "a reply holds a secret: \(reply.status)") }
            }
            let text = log.text
            #expect(text.contains("error") || text.contains("warning"), "the failures were logged")
            for secret in secrets {
                #expect(!text.contains(secret), "a log line holds a secret (\(secret.prefix(4))…)")
            }
        }
    }
}
