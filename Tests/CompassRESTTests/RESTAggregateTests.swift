import CompassHTTP
import Foundation
import Testing

@testable import CompassREST

/// Aggregates in `select=` (`count()`, `goals.sum()`, …), grouped by the other selected columns,
/// inside embeds and hoisted out of to-one spreads; only with `COMPASS_REST_AGGREGATES`, as PostgREST's
/// `db-aggregates-enabled`. The bare `count` column counts rows either way, as it does in PostgREST.
@Suite("REST aggregate functions", .serialized)
struct RESTAggregateTests {
    static let sql = """
        CREATE TABLE public.agg_leagues (id int PRIMARY KEY, name text NOT NULL);
        CREATE TABLE public.agg_teams (id int PRIMARY KEY, name text NOT NULL, league_id int REFERENCES public.agg_leagues (id));
        CREATE TABLE public.agg_players (
            id int PRIMARY KEY, team_id int REFERENCES public.agg_teams (id), name text NOT NULL, goals int NOT NULL, stats jsonb);
        GRANT SELECT, UPDATE ON public.agg_leagues, public.agg_teams, public.agg_players TO anon, authenticated, service_role;
        INSERT INTO public.agg_leagues VALUES (1, 'North'), (2, 'South');
        INSERT INTO public.agg_teams VALUES (1, 'Lions', 1), (2, 'Tigers', 1), (3, 'Bears', 2), (4, 'Empty', 2);
        INSERT INTO public.agg_players VALUES
            (1, 1, 'Ann', 3, '{"assists": 2}'), (2, 1, 'Bob', 5, '{"assists": 1}'), (3, 2, 'Cid', 1, '{"assists": 4}'),
            (4, 3, 'Dee', 7, '{"assists": 0}'), (5, NULL, 'Eve', 2, '{"assists": 3}');
        CREATE FUNCTION public.agg_scorers() RETURNS SETOF public.agg_players LANGUAGE sql STABLE
            AS 'SELECT * FROM public.agg_players WHERE goals > 1';
        """

    static var enabled: RESTConfiguration {
        var configuration = RESTConfiguration()
        configuration.allowsAggregates = true
        return configuration
    }

    @Test func aggregatesAreRefusedUnlessEnabledAndNothingRuns() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.sql)
            for path in [
                "agg_players?select=goals.sum()", "agg_teams?select=name,agg_players(goals.max())",
                "agg_players?select=...agg_teams(id.count())", "agg_players?select=n:count()",
                "agg_players?select=name,count",
            ] {
                let refused = try await rest.request(.get, path)
                #expect(refused.isError("PGRST123", status: 400), "\(path)")
                #expect(refused.object["message"] as? String == "Use of aggregate functions is not allowed")
            }
            let written = try await rest.request(
                .patch, "agg_players?id=eq.1&select=goals.sum()", headers: ["Prefer": "return=representation"], body: #"{"goals": 99}"#)
            #expect(written.isError("PGRST123", status: 400))
            #expect(try await rest.count("SELECT goals FROM public.agg_players WHERE id = 1") == 3)
            // A bare `count` that names no column counts rows, as Postgres reads PostgREST's `t.count`.
            let counted = try await rest.request(.get, "agg_players?select=count")
            #expect(counted.hasJSON(#"[{"count": 5}]"#))
            let embedded = try await rest.request(.get, "agg_teams?select=name,agg_players(count)&order=id")
            #expect(
                embedded.hasJSON(
                    #"""
                    [{"name": "Lions", "agg_players": [{"count": 2}]}, {"name": "Tigers", "agg_players": [{"count": 1}]},
                     {"name": "Bears", "agg_players": [{"count": 1}]}, {"name": "Empty", "agg_players": [{"count": 0}]}]
                    """#))
        }
    }

    @Test func aggregatesWithAliasesCastsAndGroups() async throws {
        try await RESTHarness.with(configuration: Self.enabled) { rest in
            try await rest.addFixtures(Self.sql)
            let rows = try await rest.request(.get, "agg_players?select=count(),n:count()::text")
            #expect(rows.hasJSON(#"[{"count": 5, "n": "5"}]"#))
            let all = try await rest.request(.get, "agg_players?select=goals.sum(),goals.avg(),goals.max(),goals.min(),goals.count()")
            #expect(all.hasJSON(#"[{"sum": 18, "avg": 3.6, "max": 7, "min": 1, "count": 5}]"#))
            let grouped = try await rest.request(.get, "agg_players?select=team:team_id,total:goals.sum()&order=team_id.nullsfirst")
            #expect(
                grouped.hasJSON(
                    #"[{"team": null, "total": 2}, {"team": 1, "total": 8}, {"team": 2, "total": 1}, {"team": 3, "total": 7}]"#))
            // A cast of the input (a JSON path's text) and of the result.
            let assists = try await rest.request(.get, "agg_players?select=assists:stats->>assists::int.sum()::text")
            #expect(assists.hasJSON(#"[{"assists": "10"}]"#))
            // Filters pick the rows before grouping; order and limit apply to the groups.
            let windowed = try await rest.request(
                .get, "agg_players?select=team_id,goals.max()&goals=gt.1&order=team_id&limit=2", headers: ["Prefer": "count=exact"])
            #expect(windowed.hasJSON(#"[{"team_id": 1, "max": 5}, {"team_id": 3, "max": 7}]"#))
            #expect(windowed.header("Content-Range") == "0-1/3")
            let called = try await rest.request(.get, "rpc/agg_scorers?select=goals.max(),count()")
            #expect(called.hasJSON(#"[{"max": 7, "count": 4}]"#))
            let badCast = try await rest.request(.get, "agg_players?select=goals.sum()::evil")
            #expect(badCast.isError("42704", status: 400))
            // Any type the catalog has, as in PostgREST, not only the common ones.
            let words = try await rest.request(.get, "agg_players?select=name::tsvector&id=eq.1")
            #expect(words.hasJSON(#"[{"name": "'Ann'"}]"#))
            let badColumn = try await rest.request(.get, "agg_players?select=nope.sum()")
            #expect(badColumn.isError("42703", status: 400))
        }
    }

    @Test func aggregatesInEmbedsAndSpreads() async throws {
        try await RESTHarness.with(configuration: Self.enabled) { rest in
            try await rest.addFixtures(Self.sql)
            let perTeam = try await rest.request(.get, "agg_teams?select=name,agg_players(goals.sum(),count())&order=id")
            #expect(
                perTeam.hasJSON(
                    #"""
                    [{"name": "Lions", "agg_players": [{"sum": 8, "count": 2}]}, {"name": "Tigers", "agg_players": [{"sum": 1, "count": 1}]},
                     {"name": "Bears", "agg_players": [{"sum": 7, "count": 1}]}, {"name": "Empty", "agg_players": [{"sum": null, "count": 0}]}]
                    """#))
            // A to-one embed's object is one of the grouping keys.
            let byTeam = try await rest.request(.get, "agg_players?select=agg_teams(name),goals.sum()&team_id=eq.1")
            #expect(byTeam.hasJSON(#"[{"agg_teams": {"name": "Lions"}, "sum": 8}]"#))
            // A spread's aggregate counts the parent's rows, grouped by the spread's other keys (nested spreads too).
            let byLeague = try await rest.request(
                .get, "agg_players?select=goals:goals.sum(),...agg_teams(...agg_leagues(league:name))&team_id=not.is.null&order=agg_teams(league)")
            #expect(byLeague.hasJSON(#"[{"goals": 9, "league": "North"}, {"goals": 7, "league": "South"}]"#))
            let teamsPerLeague = try await rest.request(.get, "agg_teams?select=...agg_leagues(name,teams:count())&order=agg_leagues(name).desc")
            #expect(teamsPerLeague.hasJSON(#"[{"name": "South", "teams": 2}, {"name": "North", "teams": 2}]"#))
            let toMany = try await rest.request(.get, "agg_teams?select=name,...agg_players(goals.sum())")
            #expect(toMany.isError("PGRST127", status: 400))
            #expect(toMany.object["details"] as? String == "Aggregates are not implemented for one-to-many or many-to-many spreads.")
        }
    }

    @Test func theSettingIsABoolean() throws {
        #expect(RESTConfiguration().allowsAggregates == false)
        #expect(try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_AGGREGATES": "true"])).allowsAggregates)
        #expect(throws: ConfigurationError.self) { try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_AGGREGATES": "sometimes"])) }
    }
}
