import CompassREST
import Foundation
import Testing

/// `Accept: application/vnd.pgrst.plan` with `COMPASS_REST_DB_PLAN_ENABLED=true` (PostgREST's
/// `db-plan-enabled`): the request's `EXPLAIN`, in its own transaction, role and claims.
@Suite("REST execution plans", .serialized)
struct RESTPlanTests {
    static let fixtures = """
        CREATE TABLE public.rest_planned (id int PRIMARY KEY, name text);
        CREATE TABLE public.rest_planned_child (id int PRIMARY KEY, parent_id int REFERENCES public.rest_planned, name text);
        INSERT INTO public.rest_planned VALUES (1, 'one'), (2, 'two');
        INSERT INTO public.rest_planned_child VALUES (10, 1, 'ten'), (11, 1, 'eleven');
        GRANT SELECT, INSERT ON public.rest_planned, public.rest_planned_child TO anon;
        CREATE TABLE public.rest_planned_secret (id int PRIMARY KEY);
        """

    static func plansOn() -> RESTConfiguration {
        var configuration = RESTConfiguration()
        configuration.allowsPlans = true
        return configuration
    }

    /// The top node of `FORMAT JSON`'s plan.
    static func topNode(_ response: RESTResponse) -> [String: Any] {
        let plans = (try? JSONSerialization.jsonObject(with: Data(response.body.utf8))) as? [[String: Any]]
        return plans?.first?["Plan"] as? [String: Any] ?? [:]
    }

    @Test func plansAreNotServedUnlessEnabled() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.fixtures)
            let refused = try await rest.request(.get, "rest_planned", headers: ["Accept": "application/vnd.pgrst.plan+json"])
            #expect(refused.isError("PGRST107", status: 406))
            // Another acceptable type is served instead, as PostgREST passes the plan over.
            let json = try await rest.request(.get, "rest_planned?id=eq.1", headers: ["Accept": "application/vnd.pgrst.plan, application/json;q=0.5"])
            #expect(json.status == 200)
            #expect(json.body == #"[{"id":1,"name":"one"}]"#)
        }
    }

    @Test func aReadIsExplainedAsPostgRESTExplainsIt() async throws {
        try await RESTHarness.with(configuration: Self.plansOn()) { rest in
            try await rest.addFixtures(Self.fixtures)
            let json = try await rest.request(.get, "rest_planned?id=in.(1,2)", headers: ["Accept": "application/vnd.pgrst.plan+json"])
            #expect(json.status == 200, "\(json)")
            #expect(json.header("Content-Type") == #"application/vnd.pgrst.plan+json; for="application/json"; charset=utf-8"#)
            #expect(Self.topNode(json)["Node Type"] as? String == "Aggregate", "\(json.body)")
            #expect((Self.topNode(json)["Total Cost"] as? Double ?? 0) > 0)

            // No format is text; its lines end with newlines.
            let text = try await rest.request(.get, "rest_planned?id=eq.1", headers: ["Accept": "application/vnd.pgrst.plan"])
            #expect(text.header("Content-Type") == #"application/vnd.pgrst.plan+text; for="application/json"; charset=utf-8"#)
            #expect(text.body.hasPrefix("Aggregate"), "\(text.body)")
            #expect(text.body.hasSuffix("\n"))

            // Options in PostgREST's order whatever the client's; unknown ones ignored.
            let analyzed = try await rest.request(
                .get, "rest_planned", headers: ["Accept": "application/vnd.pgrst.plan+json; options=wal|nonsense|analyze"])
            #expect(analyzed.header("Content-Type") == #"application/vnd.pgrst.plan+json; for="application/json"; options=analyze|wal; charset=utf-8"#)
            #expect(Self.topNode(analyzed)["WAL Records"] as? Int == 0, "\(analyzed.body)")
            #expect(Self.topNode(analyzed)["Actual Rows"] as? Int == 1)

            // The representation it explains.
            let single = try await rest.request(
                .get, "rest_planned?id=eq.1", headers: ["Accept": #"application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object"; options=verbose"#])
            #expect(single.header("Content-Type") == #"application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json"; options=verbose; charset=utf-8"#)
            let output = (Self.topNode(single)["Output"] as? [String] ?? []).joined(separator: ", ")
            #expect(output.contains("-> 0"), "the single object's aggregate: \(output)")
            // A quoted `for` keeps its own parameters.
            let stripped = try await rest.request(
                .get, "rest_planned?id=eq.1", headers: ["Accept": #"application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json;nulls=stripped""#])
            #expect(
                stripped.header("Content-Type")
                    == #"application/vnd.pgrst.plan+json; for="application/vnd.pgrst.object+json;nulls=stripped"; charset=utf-8"#, "\(stripped)")
        }
    }

    @Test func embeddedTablesAreNamedAsPostgRESTNamesThem() async throws {
        try await RESTHarness.with(configuration: Self.plansOn()) { rest in
            try await rest.addFixtures(Self.fixtures)
            let plan = try await rest.request(
                .get, "rest_planned?select=name,rest_planned_child!inner(name)&rest_planned_child.or=(id.eq.10,name.eq.x)",
                headers: ["Accept": "application/vnd.pgrst.plan+text; options=verbose"])
            #expect(plan.status == 200, "\(plan)")
            #expect(
                plan.body.contains(
                    "((rest_planned_child_1.parent_id = rest_planned.id) AND ((rest_planned_child_1.id = 10) OR (rest_planned_child_1.name = 'x'::text)))"),
                "\(plan.body)")
        }
    }

    @Test func aWriteIsExplainedInItsTransaction() async throws {
        try await RESTHarness.with(configuration: Self.plansOn()) { rest in
            try await rest.addFixtures(Self.fixtures)
            let accept = "application/vnd.pgrst.plan+json; options=analyze"
            let rolledBack = try await rest.request(
                .post, "rest_planned", headers: ["Accept": accept, "Prefer": "tx=rollback"], body: #"{"id": 3, "name": "three"}"#)
            #expect(rolledBack.status == 200, "\(rolledBack)")
            #expect(rolledBack.body.contains(#""Operation": "Insert""#), "\(rolledBack.body)")
            #expect(try await rest.count("SELECT count(*)::int8 FROM public.rest_planned WHERE id = 3") == 0)
            // ANALYZE runs the statement: without a rollback the insert stays, as in PostgREST.
            let committed = try await rest.request(.post, "rest_planned", headers: ["Accept": accept], body: #"{"id": 4, "name": "four"}"#)
            #expect(committed.status == 200)
            #expect(try await rest.count("SELECT count(*)::int8 FROM public.rest_planned WHERE id = 4") == 1)
            // A plan is no way around the request's checks: a body of the wrong shape is refused as before.
            let bad = try await rest.request(.post, "rest_planned", headers: ["Accept": accept], body: #"{"nope": 1}"#)
            #expect(bad.status == 400, "\(bad)")
        }
    }

    @Test func aPlanRunsUnderTheRequestsRole() async throws {
        try await RESTHarness.with(configuration: Self.plansOn()) { rest in
            try await rest.addFixtures(Self.fixtures)
            let secret = try await rest.request(.get, "rest_planned_secret", headers: ["Accept": "application/vnd.pgrst.plan+json"])
            #expect(secret.isError("42501", status: 401), "\(secret)")
        }
    }
}
