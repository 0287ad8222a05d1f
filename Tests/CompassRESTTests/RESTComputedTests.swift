import Foundation
import HTTPTypes
import Testing

@testable import CompassREST

/// Computed fields and computed relationships: functions of a table's row, used as PostgREST
/// uses them in `select=`, filters, `order=`, embeds, and on the rows of writes and calls.
@Suite("REST computed fields and relationships", .serialized)
struct RESTComputedTests {
    @Test func computedFieldsSelectFilterAndOrderLikeColumns() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(RESTHarness.computedSQL)
            let filtered = try await rest.request(.get, "rest_games?select=id,rest_shouted,rest_negated&rest_shouted=like.*CIV*")
            #expect(filtered.status == 200)
            #expect(filtered.hasJSON(#"[{"id": 1, "rest_shouted": "CIV", "rest_negated": -1}]"#))
            let ordered = try await rest.request(.get, "rest_games?select=id&order=rest_negated.asc&limit=2")
            #expect(ordered.array.map { $0["id"] as? Int } == [4, 3])
            // The same name on another table is that table's overload.
            let maker = try await rest.request(.get, "rest_makers?select=id,rest_shouted&id=eq.1")
            #expect(maker.hasJSON(#"[{"id": 1, "rest_shouted": "SID!"}]"#))
            // `*` is the columns only, as in PostgREST.
            let star = try await rest.request(.get, "rest_games?select=*&id=eq.1")
            #expect(star.array.first.map { $0.keys.sorted() } == ["id", "maker_id", "name", "price"])
            // A function of the row in a schema that is not exposed is no field.
            let hidden = try await rest.request(.get, "rest_games?select=id,rest_secret")
            #expect(hidden.isError("42703", status: 400))
            #expect(hidden.object["message"] as? String == "column rest_games.rest_secret does not exist")
        }
    }

    @Test func computedFieldsOnTheRowsOfWritesAndCalls() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(RESTHarness.computedSQL)
            let prefer = ["Prefer": "return=representation"]
            let patched = try await rest.request(
                .patch, "rest_games?rest_negated=eq.-2&select=id,rest_shouted", headers: prefer, body: #"{"name": "Pirates!"}"#)
            #expect(patched.status == 200)
            #expect(patched.hasJSON(#"[{"id": 2, "rest_shouted": "PIRATES!"}]"#))
            let nothing = try await rest.request(.patch, "rest_makers?select=id,rest_shouted", headers: prefer, body: "{}")
            #expect(nothing.status == 200)
            #expect(nothing.body == "[]")
            let posted = try await rest.request(
                .post, "rest_games?select=name,rest_shouted,maker:rest_game_maker(name)", headers: prefer,
                body: #"{"id": 5, "name": "Chrono", "maker_id": 2}"#)
            #expect(posted.status == 201)
            #expect(posted.hasJSON(#"[{"name": "Chrono", "rest_shouted": "CHRONO", "maker": {"name": "Hiro"}}]"#))
            let deleted = try await rest.request(.delete, "rest_games?rest_shouted=eq.CHRONO", headers: prefer)
            #expect(deleted.array.map { $0["id"] as? Int } == [5])
            let called = try await rest.request(
                .get, "rpc/rest_cheap_games?below=15&select=id,rest_shouted,maker:rest_game_maker(name)&order=id")
            #expect(called.status == 200)
            #expect(
                called.hasJSON(
                    #"[{"id": 1, "rest_shouted": "CIV", "maker": {"name": "Sid"}}, {"id": 4, "rest_shouted": "ORPHAN", "maker": null}]"#))
        }
    }

    @Test func aFunctionReturningADomainOverATablesRowsEmbedsLikeTheTable() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                RESTHarness.computedSQL + """
                    CREATE DOMAIN public.rest_game_row AS public.rest_games;
                    CREATE FUNCTION public.rest_game_rows(id int) RETURNS SETOF public.rest_game_row LANGUAGE sql STABLE
                        AS 'SELECT g::public.rest_game_row FROM public.rest_games AS g WHERE g.id = $1';
                    """)
            for (method, path, body) in [
                (HTTPRequest.Method.post, "rpc/rest_game_rows?select=name,rest_makers(name)", #"{"id": 3}"#),
                (.get, "rpc/rest_game_rows?id=3&select=name,rest_makers(name)", nil),
            ] {
                let called = try await rest.request(method, path, body: body)
                #expect(called.status == 200)
                #expect(called.hasJSON(#"[{"name": "Final Fantasy", "rest_makers": {"name": "Hiro"}}]"#))
            }
        }
    }

    @Test func computedRelationshipsEmbedLikeForeignKeys() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(RESTHarness.computedSQL)
            let toOne = try await rest.request(
                .get, "rest_games?select=id,rest_game_maker(name)&maker_id=not.is.null&order=rest_game_maker(name).asc,id.desc")
            #expect(toOne.status == 200)
            #expect(toOne.array.map { $0["id"] as? Int } == [3, 2, 1])
            #expect((toOne.array.first?["rest_game_maker"] as? [String: Any])?["name"] as? String == "Hiro")
            let toMany = try await rest.request(.get, "rest_makers?select=name,games:rest_maker_games(name)&games.order=name&order=id")
            #expect(
                toMany.hasJSON(
                    #"[{"name": "Sid", "games": [{"name": "Civ"}, {"name": "Pirates"}]}, {"name": "Hiro", "games": [{"name": "Final Fantasy"}]}]"#))
            let inner = try await rest.request(.get, "rest_makers?select=name,rest_maker_games!inner(name)&rest_maker_games.name=eq.Civ")
            #expect(inner.hasJSON(#"[{"name": "Sid", "rest_maker_games": [{"name": "Civ"}]}]"#))
            let orphans = try await rest.request(.get, "rest_games?select=name,rest_game_maker()&rest_game_maker=is.null")
            #expect(orphans.hasJSON(#"[{"name": "Orphan"}]"#))
            let spread = try await rest.request(.get, "rest_games?select=name,...rest_game_maker(maker:name)&id=eq.3")
            #expect(spread.hasJSON(#"[{"name": "Final Fantasy", "maker": "Hiro"}]"#))
            let orderedByMany = try await rest.request(.get, "rest_makers?select=id,rest_maker_games(id)&order=rest_maker_games(id)")
            #expect(orderedByMany.isError("PGRST118", status: 400))
        }
    }

    @Test func aComputedRelationshipNamedLikeATableReplacesItsForeignKeys() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(RESTHarness.computedSQL)
            let byForeignKey = try await rest.request(.get, "rest_games?select=id,rest_makers(name)&id=eq.1")
            #expect(byForeignKey.hasJSON(#"[{"id": 1, "rest_makers": {"name": "Sid"}}]"#))
            try await rest.addFixtures(
                """
                CREATE FUNCTION public.rest_makers(public.rest_games) RETURNS SETOF public.rest_makers ROWS 1 LANGUAGE sql STABLE
                    AS 'SELECT * FROM public.rest_makers WHERE id <> $1.maker_id';
                """)
            let byFunction = try await rest.request(.get, "rest_games?select=id,rest_makers(name)&id=eq.1")
            #expect(byFunction.hasJSON(#"[{"id": 1, "rest_makers": {"name": "Hiro"}}]"#))
        }
    }
}
