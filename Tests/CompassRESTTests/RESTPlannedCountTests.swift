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
            let estimate = try await rest.adminQuery("EXPLAIN (FORMAT JSON) SELECT 1 FROM public.rest_body_rows WHERE id > 35")
            let plan = try JSONSerialization.jsonObject(with: Data(try estimate[0].decode(String.self, at: 0).utf8)) as? [[String: Any]]
            let rows = try #require((plan?.first?["Plan"] as? [String: Any])?["Plan Rows"] as? Int)
            let filtered = try await rest.request(.head, "rest_body_rows?id=gt.35", headers: ["Prefer": "count=planned"])
            #expect(filtered.header("Content-Range") == "0-4/\(rows)")
            let estimated = try await rest.request(.get, "rest_body_rows?select=id&id=gt.35", headers: ["Prefer": "count=estimated"])
            #expect(estimated.header("Content-Range") == "0-4/\(max(rows, 5))")
            let call = try await rest.request(.get, "rpc/rest_body_add?a=1&b=2", headers: ["Prefer": "count=planned"])
            #expect(call.header("Content-Range") == "0-0/*")
        }
    }
}
