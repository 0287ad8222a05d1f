import Foundation
import Postgres
import Testing

@testable import CompassREST

/// Many-to-many and spread embeds, CSV, `PUT`, `Prefer: tx=` and `max-affected`, as PostgREST serves them.
@Suite("REST embeds, CSV and write preferences", .serialized)
struct RESTEmbedAndWriteTests {
    static let marcusPost = "b0000000-0000-4000-8000-000000000002"
    static let jordanPost = "b0000000-0000-4000-8000-000000000004"

    @Test func manyToManyEmbedsGoThroughTheJunction() async throws {
        try await RESTHarness.with { rest in
            let liked = try await rest.request(
                .get, "profiles?select=username,liked:posts!likes(id,caption)&user_id=eq.\(Demo.sofia)", token: rest.serviceToken)
            #expect(liked.status == 200)
            let posts = (liked.array.first?["liked"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(posts.sorted() == [Self.marcusPost, Self.jordanPost])
            let likers = try await rest.request(
                .get, "posts?select=id,profiles!likes(username)&profiles.username=eq.nobody&profiles=not.is.null", token: rest.serviceToken)
            #expect(likers.body == "[]")
            let ambiguous = try await rest.request(.get, "profiles?select=posts(caption)", token: rest.serviceToken)
            #expect(ambiguous.isError("PGRST201", status: 300))
            #expect((ambiguous.object["hint"] as? String)?.contains("'posts!likes'") == true)
            let details = ambiguous.object["details"] as? [[String: Any]] ?? []
            #expect(details.contains { $0["cardinality"] as? String == "many-to-many" && $0["relationship"] as? String == "likes using likes_user_id_fkey(user_id) and likes_post_id_fkey(post_id)" })
        }
    }

    /// An embed's rows are aggregated whole even when the client names a column like the embed's
    /// alias in SQL (`interactions_1`, `pgrst_1`): a bare alias there would mean that column.
    @Test func anEmbedKeepsItsRowsWhenAColumnIsNamedLikeItsAlias() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            for alias in ["interactions_1", "pgrst_1"] {
                let reply = try await rest.request(
                    .get, "schools?select=name,interactions(\(alias):type)&id=eq.\(Demo.stanford)&interactions.limit=1", token: token)
                #expect(reply.status == 200, "\(reply)")
                let embedded = reply.array.first?["interactions"] as? [[String: Any]]
                #expect(embedded?.count == 1 && embedded?.first?[alias] is String, "\(reply.body)")
            }
        }
    }

    /// Embedded tables are aliased `<table>_<n>` inside their joins (as in PostgREST's plans):
    /// a column of that name, in the embedded table or in its parent, is still the column, and
    /// the embed is still the embed.
    @Test func columnsNamedLikeAnEmbeddedTablesAliasStayColumns() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures("""
                CREATE TABLE public.rest_addr (id int PRIMARY KEY, rest_addr_1 text);
                CREATE TABLE public.rest_shop (id int PRIMARY KEY, addr_id int REFERENCES public.rest_addr, rest_addr_1 int);
                CREATE TABLE public.rest_house (id int PRIMARY KEY);
                CREATE TABLE public.rest_room (id int PRIMARY KEY, house_id int REFERENCES public.rest_house, rest_room_1 text);
                INSERT INTO public.rest_addr VALUES (1, NULL);
                INSERT INTO public.rest_shop VALUES (1, 1, 7), (2, NULL, NULL);
                INSERT INTO public.rest_house VALUES (1);
                INSERT INTO public.rest_room VALUES (1, 1, 'kitchen'), (2, 1, 'hall');
                GRANT SELECT ON public.rest_addr, public.rest_shop, public.rest_house, public.rest_room TO anon;
                """)
            let withoutAddress = try await rest.request(.get, "rest_shop?select=id,rest_addr(rest_addr_1)&rest_addr=is.null")
            #expect(withoutAddress.body == #"[{"id":2,"rest_addr":null}]"#, "\(withoutAddress)")
            let withAddress = try await rest.request(.get, "rest_shop?select=id,rest_addr(*)&rest_addr=not.is.null")
            #expect(withAddress.body == #"[{"id":1,"rest_addr":{"id": 1, "rest_addr_1": null}}]"#, "\(withAddress)")
            let parentColumn = try await rest.request(.get, "rest_shop?select=id,rest_addr_1,rest_addr(id)&rest_addr=is.null")
            #expect(parentColumn.body == #"[{"id":2,"rest_addr_1":null,"rest_addr":null}]"#, "\(parentColumn)")
            let spread = try await rest.request(.get, "rest_house?select=id,...rest_room(rest_room_1)&rest_room.order=id")
            #expect(spread.body == #"[{"id":1,"rest_room_1":["kitchen", "hall"]}]"#, "\(spread)")
        }
    }

    @Test func viewsEmbedThroughTheForeignKeysOfTheTablesTheyShow() async throws {
        try await RESTHarness.with { rest in
            try await rest.addSamples()
            let token = try await rest.token(Demo.sofia)
            let school = try await rest.request(
                .get, "interactions?select=id,school:rest_school_names(name,shouted)&id=eq.1a000000-0000-4000-8000-000000000001", token: token)
            #expect(school.status == 200)
            #expect((school.array.first?["school"] as? [String: Any])?["shouted"] as? String == "STANFORD UNIVERSITY")
            let coaches = try await rest.request(
                .get, "rest_school_names?select=name,coaches(first_name)&coaches.order=first_name&school_id=eq.\(Demo.stanford)", token: token)
            #expect(coaches.status == 200)
            let names = (coaches.array.first?["coaches"] as? [[String: Any]] ?? []).compactMap { $0["first_name"] as? String }
            #expect(names == ["Erin", "Tomas"])
            // A constraint name picks the table, never a view over it (as PostgREST), so it stays unambiguous.
            let byConstraint = try await rest.request(.get, "interactions?select=id,interactions_school_id_fkey(name)&limit=1", token: token)
            #expect(byConstraint.status == 200)
        }
    }

    @Test func spreadEmbedsLiftTheirKeys() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let toOne = try await rest.request(
                .get, "interactions?select=subject,...schools(school:name,...family_units(family:name))&id=eq.1a000000-0000-4000-8000-000000000001",
                token: token)
            #expect(toOne.status == 200)
            #expect(toOne.array.first?.keys.sorted() == ["family", "school", "subject"])
            #expect(toOne.array.first?["school"] as? String == "Stanford University")
            let toMany = try await rest.request(
                .get, "schools?select=name,...coaches(first_name)&coaches.order=first_name&id=eq.\(Demo.stanford)", token: token)
            #expect(toMany.array.first?["first_name"] as? [String] == ["Erin", "Tomas"])
            let nested = try await rest.request(
                .get, "schools?select=name,...coaches(first_name,...schools(school:name))&coaches.order=first_name&id=eq.\(Demo.stanford)",
                token: token)
            #expect(nested.status == 200)
            #expect(nested.array.first?["school"] as? [String] == ["Stanford University", "Stanford University"])
            let empty = try await rest.request(
                .get, "schools?select=name,...coaches(first_name)&coaches.first_name=eq.Nobody&id=eq.\(Demo.stanford)", token: token)
            #expect((empty.array.first?["first_name"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func functionsWithOutputColumnsReturnObjectsAndPartitionsAreNotServed() async throws {
        try await RESTHarness.with { rest in
            try await rest.addSamples()
            let table = try await rest.request(.get, "rpc/rest_sample_notes?id=eq.2")
            #expect(table.status == 200)
            #expect(table.array.count == 1)
            #expect(table.array.first?["note"] as? String == "second")
            let out = try await rest.request(.post, "rpc/rest_sample_count", body: "{}")
            #expect(out.object["total"] as? Int == 2)
            let codes = try await rest.request(.get, "rpc/rest_sample_codes?code=abcd&flags=101")
            #expect(codes.body == #""abcd:101""#)
            let echoed = try await rest.request(.post, "rpc/rest_sample_echo", body: #"{"a": [1, 2], "b": "x"}"#)
            #expect(echoed.status == 200)
            #expect((echoed.object["a"] as? [Int]) == [1, 2])
            let records = try await rest.request(.get, "rpc/rest_sample_rows")
            #expect(records.status == 200)
            #expect(records.array.map { $0["id"] as? Int } == [1, 2])
            let deleted = try await rest.request(.delete, "rpc/rest_sample_count")
            #expect(deleted.isError("PGRST101", status: 405))
            #expect(deleted.object["message"] as? String == "Cannot use the DELETE method on RPC")
            #expect(try await rest.request(.get, "rest_sample_parts").status == 200)
            #expect(try await rest.request(.get, "rest_sample_parts_2026").isError("PGRST205", status: 404))
        }
    }

    @Test func functionsShapeTheirOwnErrorReplies() async throws {
        try await RESTHarness.with { rest in
            try await rest.addSamples()
            let teapot = try await rest.request(.post, "rpc/rest_sample_refuse", body: #"{"shape": "teapot"}"#)
            #expect(teapot.isError("PT418", status: 418))
            #expect(teapot.object["message"] as? String == "short and stout")
            let reply = try await rest.request(.post, "rpc/rest_sample_refuse", body: #"{"shape": "reply"}"#)
            #expect(reply.isError("CMP01", status: 402))
            #expect(reply.object["hint"] as? String == "Visit billing")
            #expect(reply.header("X-Compass") == "billing")
            let malformed = try await rest.request(.post, "rpc/rest_sample_refuse", body: #"{"shape": "other"}"#)
            #expect(malformed.isError("PGRST121", status: 500))
            #expect(malformed.object["details"] as? String == "Invalid JSON value for MESSAGE: 'not json'")
        }
    }

    @Test func functionsSetReplyHeadersAndStatus() async throws {
        try await RESTHarness.with { rest in
            try await rest.addSamples()
            let shaped = try await rest.request(
                .post, "rpc/rest_sample_reply",
                body: #"{"headers": "[{\"Set-Cookie\": \"a=1\"}, {\"Set-Cookie\": \"b=2\"}, {\"X-Compass\": \"yes\"}]", "status": "202"}"#)
            #expect(shaped.status == 202)
            #expect(shaped.headers[values: .setCookie] == ["a=1", "b=2"])
            #expect(shaped.header("X-Compass") == "yes")
            let badHeaders = try await rest.request(.post, "rpc/rest_sample_reply", body: #"{"headers": "{\"a\": 1}", "status": ""}"#)
            #expect(badHeaders.isError("PGRST111", status: 500))
            let badStatus = try await rest.request(.post, "rpc/rest_sample_reply", body: #"{"headers": "", "status": "teapot"}"#)
            #expect(badStatus.isError("PGRST112", status: 500))
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_samples WHERE note = 'touched'") == 1)
        }
    }

    @Test func csvReplies() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let csv = try await rest.request(
                .get, "schools?select=name,status&order=name&limit=2", token: token, headers: ["Accept": "text/csv"])
            #expect(csv.status == 200)
            #expect(csv.header("Content-Type") == "text/csv; charset=utf-8")
            #expect(csv.body == "name,status\n\"Stanford University\",interested\nUCLA,visited")
        }
    }

    @Test func putInsertsOrReplacesTheRowItsKeyNames() async throws {
        try await RESTHarness.with { rest in
            try await rest.addSamples()
            let prefer = ["Prefer": "return=representation"]
            let created = try await rest.request(.put, "rest_samples?id=eq.3", headers: prefer, body: #"{"id": 3, "note": "new"}"#)
            #expect(created.status == 201)
            #expect(created.array.first?["note"] as? String == "new")
            let replaced = try await rest.request(
                .put, "rest_samples?id=eq.3", headers: prefer, body: #"[{"id": 3, "note": "replaced"}, {"id": 4, "note": "ignored"}]"#)
            #expect(replaced.status == 200)
            #expect(replaced.array.map { $0["note"] as? String } == ["replaced"])
            let minimal = try await rest.request(.put, "rest_samples?id=eq.3", body: #"{"id": 3, "note": "again"}"#)
            #expect(minimal.status == 204)
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_samples WHERE id >= 3") == 1)

            let mismatch = try await rest.request(.put, "rest_samples?id=eq.5", body: #"{"id": 6}"#)
            #expect(mismatch.isError("PGRST115", status: 400))
            let partial = try await rest.request(.put, "rest_samples?note=eq.x", body: #"{"id": 6}"#)
            #expect(partial.isError("PGRST105", status: 405))
            let negated = try await rest.request(.put, "rest_samples?id=not.eq.5", body: #"{"id": 5}"#)
            #expect(negated.isError("PGRST105", status: 405))
            let limited = try await rest.request(.put, "rest_samples?id=eq.5&limit=1", body: #"{"id": 5}"#)
            #expect(limited.isError("PGRST114", status: 400))
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_samples WHERE id >= 5") == 0)
        }
    }

    @Test func rollbackAndMaxAffectedPreferences() async throws {
        try await RESTHarness.with { rest in
            try await rest.addSamples()
            let rolledBack = try await rest.request(
                .patch, "rest_samples?id=eq.1", headers: ["Prefer": "return=representation, tx=rollback"], body: #"{"note": "draft"}"#)
            #expect(rolledBack.status == 200)
            #expect(rolledBack.array.first?["note"] as? String == "draft")
            #expect(rolledBack.header("Preference-Applied") == "return=representation, tx=rollback")
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_samples WHERE note = 'draft'") == 0)

            let tooMany = try await rest.request(.delete, "rest_samples?id=gt.0", headers: ["Prefer": "handling=strict, max-affected=1"])
            #expect(tooMany.isError("PGRST124", status: 400))
            #expect(tooMany.object["details"] as? String == "The query affects 2 rows")
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_samples") == 2)
            let withinLimit = try await rest.request(.delete, "rest_samples?id=eq.2", headers: ["Prefer": "handling=strict, max-affected=1"])
            #expect(withinLimit.status == 204)
            #expect(withinLimit.header("Preference-Applied") == "handling=strict, max-affected=1")
            let lenient = try await rest.request(.delete, "rest_samples?id=gt.0", headers: ["Prefer": "max-affected=0"])
            #expect(lenient.status == 204)
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_samples") == 0)
        }
    }

    /// A write rolled back (`tx=rollback`) answers what it would have answered committed: a
    /// deferred constraint it breaks is checked before the rollback, as PostgREST does.
    @Test func aRolledBackWriteStillAnswersItsDeferredConstraints() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures("""
                CREATE TABLE public.rest_deferred (id int PRIMARY KEY, code text UNIQUE DEFERRABLE INITIALLY DEFERRED);
                INSERT INTO public.rest_deferred VALUES (1, 'a');
                GRANT SELECT, INSERT ON public.rest_deferred TO anon;
                """)
            for preference in ["tx=rollback", "tx=commit"] {
                let duplicate = try await rest.request(.post, "rest_deferred", headers: ["Prefer": preference], body: #"{"id": 2, "code": "a"}"#)
                #expect(duplicate.isError("23505", status: 409), "\(preference): \(duplicate)")
            }
            let fine = try await rest.request(.post, "rest_deferred", headers: ["Prefer": "tx=rollback"], body: #"{"id": 2, "code": "b"}"#)
            #expect(fine.status == 201)
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_deferred") == 1)
        }
    }

    @Test func rollbackCanBeTurnedOff() async throws {
        var configuration = RESTConfiguration()
        configuration.transactionEnd = .commit
        try await RESTHarness.with(configuration: configuration) { rest in
            try await rest.addSamples()
            let committed = try await rest.request(
                .patch, "rest_samples?id=eq.1", headers: ["Prefer": "tx=rollback"], body: #"{"note": "kept"}"#)
            #expect(committed.status == 204)
            #expect(committed.header("Preference-Applied") == nil)
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_samples WHERE note = 'kept'") == 1)
        }
    }
}
