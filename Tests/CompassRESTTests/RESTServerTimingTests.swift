import CompassREST
import Foundation
import Testing

/// `COMPASS_REST_SERVER_TIMING=true` (PostgREST's `server-timing-enabled`): each reply says how
/// long its phases took in `Server-Timing`; off, no reply says anything about it.
@Suite("REST Server-Timing")
struct RESTServerTimingTests {
    /// The phases a header names, with their milliseconds.
    static func phases(_ header: String?) -> [String: Double] {
        var phases: [String: Double] = [:]
        for entry in (header ?? "").split(separator: ",") {
            let parts = entry.trimmingCharacters(in: .whitespaces).split(separator: ";")
            guard parts.count == 2, parts[1].hasPrefix("dur="), let value = Double(parts[1].dropFirst(4)) else { return [:] }
            phases[String(parts[0])] = value
        }
        return phases
    }

    @Test func everyReplyTimesItsPhasesWhenAskedTo() async throws {
        var configuration = RESTConfiguration()
        configuration.serverTiming = true
        try await RESTHarness.with(configuration: configuration) { rest in
            try await rest.addFixtures("""
                CREATE TABLE public.rest_timed (id int PRIMARY KEY);
                GRANT SELECT, INSERT ON public.rest_timed TO anon;
                """)
            let all: Set = ["jwt", "parse", "plan", "transaction", "response"]
            let read = try await rest.request(.get, "rest_timed")
            #expect(read.status == 200)
            #expect(Set(Self.phases(read.header("Server-Timing")).keys) == all, "\(read.header("Server-Timing") ?? "none")")
            #expect(read.header("Server-Timing")?.hasPrefix("jwt;dur=") == true)
            let write = try await rest.request(.post, "rest_timed", body: #"{"id": 1}"#)
            #expect(write.status == 201, "\(write.body)")
            #expect(Set(Self.phases(write.header("Server-Timing")).keys) == all)
            // A refusal carries no timing.
            let refused = try await rest.request(.get, "rpc/no_such_function")
            #expect(refused.status == 404)
            #expect(refused.header("Server-Timing") == nil)
            // OPTIONS runs no statement: its token and its lookup.
            let options = try await rest.request(.options, "rest_timed")
            #expect(Set(Self.phases(options.header("Server-Timing")).keys) == ["jwt", "parse", "response"])
        }
    }

    @Test func theTransactionPhaseIsTheDatabasesTime() async throws {
        var configuration = RESTConfiguration()
        configuration.serverTiming = true
        try await RESTHarness.with(configuration: configuration) { rest in
            try await rest.addFixtures("""
                CREATE FUNCTION public.rest_nap() RETURNS int LANGUAGE sql STABLE AS 'SELECT 1 FROM pg_sleep(0.2)';
                GRANT EXECUTE ON FUNCTION public.rest_nap() TO anon;
                """)
            let nap = try await rest.request(.get, "rpc/rest_nap")
            #expect(nap.status == 200)
            let phases = Self.phases(nap.header("Server-Timing"))
            #expect((phases["transaction"] ?? 0) >= 200, "\(phases)")
            #expect((phases["plan"] ?? 1000) < 200, "\(phases)")
        }
    }

    @Test func offByDefault() async throws {
        try await RESTHarness.with { rest in
            let read = try await rest.request(.get, "schools?select=id&limit=1")
            #expect(read.status == 200)
            #expect(read.header("Server-Timing") == nil)
        }
    }
}
