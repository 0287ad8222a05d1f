import CompassTestSupport
import Foundation
import Postgres
import Testing

/// A function called through `/rest/v1/rpc` runs once per request, whatever its volatility: a
/// STABLE function's value is used twice in the reply (count and body), and the planner would
/// otherwise evaluate it twice. A stable function runs read-only (as in PostgREST), so it counts
/// its calls in a transaction setting and reports the count in `response.headers`.
@Suite("rpc calls run once")
struct RPCCallsOnceTests {
    @Test func aStableScalarFunctionRunsOncePerCall() async throws {
        try await ServerHarness.with { harness in
            for statement: PostgresQuery in [
                """
                CREATE FUNCTION public.counted_call() RETURNS bigint LANGUAGE plpgsql STABLE AS $$
                DECLARE calls int := coalesce(nullif(current_setting('rpc.calls', true), '')::int, 0) + 1;
                BEGIN
                  PERFORM set_config('rpc.calls', calls::text, true);
                  PERFORM set_config('response.headers', json_build_array(json_build_object('X-Calls', calls::text))::text, true);
                  RETURN calls;
                END $$
                """,
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
            #expect(RawConnection.status(of: reply) == 200, "\(reply)")
            let answered = reply.components(separatedBy: "\r\n\r\n").last?.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(answered == "1", "the reply is the one call's value")
            #expect(reply.lowercased().contains("x-calls: 1\r\n"), "called once: \(reply)")
        }
    }
}
