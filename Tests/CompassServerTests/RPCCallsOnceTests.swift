import CompassTestSupport
import Foundation
import Postgres
import Testing

/// A function called through `/rest/v1/rpc` runs once per request, whatever its volatility: a
/// STABLE function's value is used twice in the reply (count and body), and the planner would
/// otherwise evaluate it twice.
@Suite("rpc calls run once")
struct RPCCallsOnceTests {
    @Test func aStableScalarFunctionRunsOncePerCall() async throws {
        try await ServerHarness.with { harness in
            for statement: PostgresQuery in [
                "CREATE SEQUENCE public.rpc_calls",
                "CREATE FUNCTION public.counted_call() RETURNS bigint LANGUAGE sql STABLE AS 'SELECT nextval(''public.rpc_calls'')'",
                "GRANT USAGE ON SEQUENCE public.rpc_calls TO service_role",
                "GRANT EXECUTE ON FUNCTION public.counted_call() TO service_role",
                "NOTIFY pgrst, 'reload schema'",
            ] {
                _ = try await harness.database.query(statement)
            }
            let key = harness.keys.serviceRole
            let body = "{}"
            var reply = ""
            let deadline = ContinuousClock.now + .seconds(30)
            repeat {  // until the schema reload has seen the function
                let connection = try RawConnection(port: harness.port)
                await connection.send(
                    "POST /rest/v1/rpc/counted_call HTTP/1.1\r\nHost: x\r\nConnection: close\r\napikey: \(key)\r\n"
                        + "Authorization: Bearer \(key)\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                reply = await connection.readUntilClosed(timeout: .seconds(15)).text
                if RawConnection.status(of: reply) == 200 { break }
                try await Task.sleep(for: .milliseconds(100))
            } while ContinuousClock.now < deadline
            #expect(RawConnection.status(of: reply) == 200)
            let calls = try await harness.database.query("SELECT last_value FROM public.rpc_calls")[0].decode(Int.self, at: 0)
            let answered = reply.components(separatedBy: "\r\n\r\n").last?.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(answered == "\(calls)", "the reply is the one call's value")
            #expect(calls == 1)
        }
    }
}
