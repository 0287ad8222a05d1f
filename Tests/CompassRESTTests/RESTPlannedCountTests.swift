import Foundation
import Testing

@testable import CompassREST

/// `Prefer: count=planned` and `count=estimated`, as PostgREST answers them: the planner's row
/// estimate for a read (the larger of it and the count for `estimated`), no total elsewhere.
@Suite("REST planned and estimated counts", .serialized)
struct RESTPlannedCountTests {
    @Test func plannedReadsTotalThePlannersEstimate() async throws {
        try await RESTHarness.with { rest in
            try await rest.addBodySamples()
            _ = try await rest.adminQuery("INSERT INTO public.rest_body_rows (label) SELECT 'row ' || n FROM generate_series(1, 40) AS n")
            _ = try await rest.adminQuery("ANALYZE public.rest_body_rows")
            let planned = try await rest.request(.get, "rest_body_rows?select=id&limit=5", headers: ["Prefer": "count=planned"])
            #expect(planned.status == 206)
            #expect(planned.header("Content-Range") == "0-4/40")
            #expect(planned.header("Preference-Applied") == "count=planned")
            // Filtered: whatever the planner expects, never a count of the rows.
            let rows = try await Self.plannedRows(rest, "SELECT 1 FROM public.rest_body_rows WHERE id > 35")
            let filtered = try await rest.request(.head, "rest_body_rows?id=gt.35", headers: ["Prefer": "count=planned"])
            #expect(filtered.header("Content-Range") == "0-4/\(rows)")
            let estimated = try await rest.request(.get, "rest_body_rows?select=id&id=gt.35", headers: ["Prefer": "count=estimated"])
            #expect(estimated.header("Content-Range") == "0-4/\(max(rows, 5))")
            let call = try await rest.request(.get, "rpc/rest_body_add?a=1&b=2", headers: ["Prefer": "count=planned"])
            #expect(call.header("Content-Range") == "0-0/*")
        }
    }

    /// The planner's row estimate for `query`, as the superuser's `EXPLAIN` gives it.
    static func plannedRows(_ rest: RESTHarness, _ query: String) async throws -> Int {
        let estimate = try await rest.adminQuery("EXPLAIN (FORMAT JSON) \(unescaped: query)")
        let plan = try JSONSerialization.jsonObject(with: Data(try estimate[0].decode(String.self, at: 0).utf8)) as? [[String: Any]]
        return try #require((plan?.first?["Plan"] as? [String: Any])?["Plan Rows"] as? Int)
    }

    /// Under `COMPASS_REST_MAX_ROWS`, `count=estimated` counts exactly up to the cap (the count
    /// stops one past it), and only past it takes the planner's guess when that is larger.
    @Test(arguments: [20, 5])
    func estimatedCountsExactlyUpToTheRowCap(cap: Int) async throws {
        var configuration = RESTConfiguration()
        configuration.maximumRows = cap
        try await RESTHarness.with(configuration: configuration) { rest in
            try await rest.addBodySamples()
            _ = try await rest.adminQuery("INSERT INTO public.rest_body_rows (label) SELECT 'row ' || n FROM generate_series(1, 60) AS n")
            _ = try await rest.adminQuery("ANALYZE public.rest_body_rows")
            // The statistics still say 60-odd rows; 12 are left.
            _ = try await rest.adminQuery("DELETE FROM public.rest_body_rows WHERE id > (SELECT min(id) + 11 FROM public.rest_body_rows)")
            #expect(try await rest.count("SELECT count(*) FROM public.rest_body_rows") == 12)
            let planned = try await Self.plannedRows(rest, "SELECT 1 FROM public.rest_body_rows")
            #expect(planned > 20, "the planner's guess is past both caps")
            let reply = try await rest.request(.head, "rest_body_rows", headers: ["Prefer": "count=estimated"])
            if cap == 20 {
                #expect(reply.header("Content-Range") == "0-11/12")
            } else {
                // The count stops at 6, past the cap of 5: the guess is larger and wins.
                #expect(reply.status == 206)
                #expect(reply.header("Content-Range") == "0-4/\(planned)")
            }
        }
    }
}
