import Foundation
import Testing

/// Media type handlers, as PostgREST's: a domain named after a media type, returned by an
/// aggregate over a table's rows (or over any rows) or by a function, lets a client ask for
/// that media type in `Accept` and get the handler's output, text or bytes.
@Suite("REST media type handlers", .serialized)
struct RESTMediaHandlerTests {
    static let fixtures = """
        CREATE DOMAIN public."text/tab-separated-values" AS text;
        CREATE DOMAIN public."application/x-rest-digest" AS bytea;
        CREATE DOMAIN public."text/html" AS text;
        CREATE DOMAIN public."text/xml" AS xml;
        CREATE DOMAIN public."image/png" AS bytea;
        CREATE DOMAIN public."*/*" AS bytea;
        CREATE DOMAIN public."application/json" AS json;
        CREATE DOMAIN public."text/x-lines" AS text;

        CREATE TABLE public.rest_songs (id int PRIMARY KEY, title text NOT NULL, plays int);
        INSERT INTO public.rest_songs VALUES (1, 'Blue', 10), (2, 'Tab	bed', NULL), (3, 'Red', 3);
        GRANT SELECT, INSERT ON public.rest_songs TO anon;

        -- Rows of one table as tab-separated values, with a header line.
        CREATE FUNCTION public.rest_songs_tsv_step(state public."text/tab-separated-values", next public.rest_songs)
        RETURNS public."text/tab-separated-values" LANGUAGE sql AS $$
            SELECT (state || next.id || E'\\t' || replace(next.title, E'\\t', ' ') || E'\\t' || coalesce(next.plays::text, '') || E'\\n')::public."text/tab-separated-values" $$;
        CREATE FUNCTION public.rest_songs_tsv_final(data public."text/tab-separated-values")
        RETURNS public."text/tab-separated-values" LANGUAGE sql AS $$
            SELECT (E'id\\ttitle\\tplays\\n' || data)::public."text/tab-separated-values" $$;
        CREATE AGGREGATE public.rest_songs_tsv(public.rest_songs) (
            stype = public."text/tab-separated-values", initcond = '', sfunc = public.rest_songs_tsv_step,
            finalfunc = public.rest_songs_tsv_final);

        -- Bytes: the songs' ids, one byte each.
        CREATE FUNCTION public.rest_songs_digest_step(state public."application/x-rest-digest", next public.rest_songs)
        RETURNS public."application/x-rest-digest" LANGUAGE sql AS $$
            SELECT (state || set_byte('\\x00'::bytea, 0, next.id))::public."application/x-rest-digest" $$;
        CREATE AGGREGATE public.rest_songs_digest(public.rest_songs) (
            stype = public."application/x-rest-digest", initcond = '\\xff', sfunc = public.rest_songs_digest_step);

        -- Any rows, one line of their text form each.
        CREATE FUNCTION public.rest_lines_step(state public."text/x-lines", next anyelement)
        RETURNS public."text/x-lines" LANGUAGE sql AS $$ SELECT (state || next::text || E'\\n')::public."text/x-lines" $$;
        CREATE AGGREGATE public.rest_lines(anyelement) (stype = public."text/x-lines", initcond = '', sfunc = public.rest_lines_step);

        -- One table answers every media type itself, naming it from the request.
        CREATE TABLE public.rest_counters (n int);
        INSERT INTO public.rest_counters VALUES (1), (2);
        GRANT SELECT ON public.rest_counters TO anon;
        CREATE FUNCTION public.rest_counters_step(state public."*/*", next public.rest_counters)
        RETURNS public."*/*" LANGUAGE sql AS $$ SELECT (state || next.n::text::bytea)::public."*/*" $$;
        CREATE FUNCTION public.rest_counters_final(data public."*/*") RETURNS public."*/*" LANGUAGE plpgsql AS $$
        DECLARE accept text := current_setting('request.headers', true)::json->>'accept';
        BEGIN
            IF accept = 'application/x-counters' THEN
                PERFORM set_config('response.headers', json_build_array(json_build_object('Content-Type', accept))::text, true);
            END IF;
            RETURN ('counted:' || data)::public."*/*";
        END $$;
        CREATE AGGREGATE public.rest_counters_all(public.rest_counters) (
            stype = public."*/*", initcond = '', sfunc = public.rest_counters_step, finalfunc = public.rest_counters_final);

        -- JSON for one table, replaced.
        CREATE TABLE public.rest_secretive ();
        GRANT SELECT ON public.rest_secretive TO anon;
        CREATE FUNCTION public.rest_secretive_step(state public."application/json", next public.rest_secretive)
        RETURNS public."application/json" LANGUAGE sql AS $$ SELECT state $$;
        CREATE AGGREGATE public.rest_secretive_json(public.rest_secretive) (
            stype = public."application/json", initcond = '{"hidden": true}', sfunc = public.rest_secretive_step);

        -- Functions that return one value of a media type.
        CREATE FUNCTION public.rest_page() RETURNS public."text/html" LANGUAGE sql AS $$ SELECT E'<p>hi</p>\\n'::public."text/html" $$;
        CREATE FUNCTION public.rest_doc() RETURNS public."text/xml" LANGUAGE sql AS $$ SELECT E'\\n<doc/>'::xml::public."text/xml" $$;
        CREATE FUNCTION public.rest_pixel() RETURNS public."image/png" LANGUAGE sql AS $$ SELECT '\\x89504e470d0a1a0a00'::bytea::public."image/png" $$;
        CREATE FUNCTION public.rest_anything() RETURNS public."*/*" LANGUAGE sql AS $$ SELECT 'any'::bytea::public."*/*" $$;
        CREATE FUNCTION public.rest_pages() RETURNS SETOF public."text/html" LANGUAGE sql AS $$ SELECT '<p>1</p>'::public."text/html" $$;
        CREATE FUNCTION public.rest_top_songs() RETURNS SETOF public.rest_songs LANGUAGE sql STABLE AS $$ SELECT * FROM public.rest_songs WHERE plays > 5 $$;
        GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO anon;
        """

    @Test func anAggregateOverATablesRowsAnswersItsMediaType() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.fixtures)
            let tsv = try await rest.request(.get, "rest_songs?order=id", headers: ["Accept": "text/tab-separated-values"])
            #expect(tsv.status == 200)
            #expect(tsv.header("Content-Type") == "text/tab-separated-values")
            // Caches must keep one reply per Accept (and Prefer, Range), as PostgREST says.
            #expect(tsv.header("Vary") == "Accept, Prefer, Range")
            #expect(tsv.body == "id\ttitle\tplays\n1\tBlue\t10\n2\tTab bed\t\n3\tRed\t3\n")
            // Filters and the window apply before the handler sees the rows.
            let filtered = try await rest.request(.get, "rest_songs?plays=gt.5", headers: ["Accept": "text/tab-separated-values"])
            #expect(filtered.body == "id\ttitle\tplays\n1\tBlue\t10\n")
            // A handler made for the table's rows needs the table's rows: columns chosen by `select=` are refused.
            let chosen = try await rest.request(.get, "rest_songs?select=id,title", headers: ["Accept": "text/tab-separated-values"])
            #expect(chosen.isError("PGRST107", status: 406))
            #expect(chosen.object["message"] as? String == "None of these media types are available: text/tab-separated-values")
            // A function returning the table's rows gets the table's handlers.
            let called = try await rest.request(.get, "rpc/rest_top_songs", headers: ["Accept": "text/tab-separated-values"])
            #expect(called.status == 200)
            #expect(called.body == "id\ttitle\tplays\n1\tBlue\t10\n")
            // So does a write asked for its rows, and it still writes.
            let written = try await rest.request(
                .post, "rest_songs", headers: ["Accept": "text/tab-separated-values", "Prefer": "return=representation"],
                body: #"{"id": 4, "title": "Green", "plays": 7}"#)
            #expect(written.status == 201)
            #expect(written.body == "id\ttitle\tplays\n4\tGreen\t7\n")
        }
    }

    @Test func aBinaryHandlerSendsBytesAndAnyRowsHandlerTakesChosenColumns() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.fixtures)
            let digest = try await rest.request(.get, "rest_songs?order=id", headers: ["Accept": "application/x-rest-digest"])
            #expect(digest.status == 200)
            #expect(digest.header("Content-Type") == "application/x-rest-digest")
            #expect(digest.bytes == [0xFF, 1, 2, 3])
            #expect(digest.header("Content-Length") == "4")
            // An aggregate over `anyelement` serves every table, whatever `select=` chose.
            let lines = try await rest.request(.get, "rest_songs?select=title,id&order=id&limit=2", headers: ["Accept": "text/x-lines"])
            #expect(lines.status == 200)
            #expect(lines.body == "(Blue,1)\n(\"Tab\tbed\",2)\n")
            let counters = try await rest.request(.get, "rest_counters?select=n&order=n", headers: ["Accept": "text/x-lines"])
            #expect(counters.body == "(1)\n(2)\n")
        }
    }

    @Test func negotiationFollowsTheClientsPreferenceAndKeepsTheVendoredForms() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.fixtures)
            // The most preferred type that can be sent wins, by quality before order.
            let preferred = try await rest.request(
                .get, "rest_songs?order=id&limit=1", headers: ["Accept": "text/html, application/json;q=0.9, text/tab-separated-values"])
            #expect(preferred.header("Content-Type") == "text/tab-separated-values")
            let json = try await rest.request(.get, "rest_songs?order=id&limit=1", headers: ["Accept": "text/plain, application/json"])
            #expect(json.header("Content-Type") == "application/json; charset=utf-8")
            #expect(json.hasJSON(#"[{"id": 1, "title": "Blue", "plays": 10}]"#))
            // No handler overrides PostgREST's own single-object form.
            let single = try await rest.request(.get, "rest_songs?id=eq.1", headers: ["Accept": "application/vnd.pgrst.object+json"])
            #expect(single.hasJSON(#"{"id": 1, "title": "Blue", "plays": 10}"#))
            // A table's JSON handler replaces the built-in JSON for that table only, a table without columns included.
            let secretive = try await rest.request(.get, "rest_secretive", headers: ["Accept": "application/json"])
            #expect(secretive.status == 200)
            #expect(secretive.header("Content-Type") == "application/json; charset=utf-8")
            #expect(secretive.hasJSON(#"{"hidden": true}"#))
            let unknown = try await rest.request(.get, "rest_songs", headers: ["Accept": "undefined"])
            #expect(unknown.isError("PGRST107", status: 406))
            #expect(unknown.object["message"] as? String == "None of these media types are available: undefined")
        }
    }

    @Test func aTablesHandlerForEveryMediaTypeAnswersAnyAcceptAndMayNameItsType() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.fixtures)
            let named = try await rest.request(.get, "rest_counters?order=n", headers: ["Accept": "application/x-counters"])
            #expect(named.status == 200)
            #expect(named.body == "counted:12")
            // The function's Content-Type replaces the reply's own: one header, not two.
            #expect(named.headers[values: .contentType] == ["application/x-counters"])
            let other = try await rest.request(.get, "rest_counters?order=n", headers: ["Accept": "application/json"])
            #expect(other.body == "counted:12")
            #expect(other.header("Content-Type") == "application/octet-stream")
            let none = try await rest.request(.get, "rest_counters?n=eq.2")
            #expect(none.body == "counted:2")
        }
    }

    @Test func aFunctionReturningAMediaTypesDomainSendsItsValueAsItIs() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.fixtures)
            let page = try await rest.request(.get, "rpc/rest_page", headers: ["Accept": "text/html"])
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html")
            #expect(page.body == "<p>hi</p>\n")
            // XML as Postgres sends it: the newline that opens the document is dropped.
            let doc = try await rest.request(.get, "rpc/rest_doc", headers: ["Accept": "text/xml"])
            #expect(doc.header("Content-Type") == "text/xml; charset=utf-8")
            #expect(doc.body == "<doc/>")
            let pixel = try await rest.request(.get, "rpc/rest_pixel", headers: ["Accept": "text/html, image/png;q=0.9, */*;q=0.8"])
            #expect(pixel.status == 200)
            #expect(pixel.header("Content-Type") == "image/png")
            #expect(pixel.bytes == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00])
            // `*/*` takes any Accept, sent as octet-stream.
            for accept in ["*/*", "app/bingo", "image/boingo"] {
                let any = try await rest.request(.get, "rpc/rest_anything", headers: ["Accept": accept])
                #expect(any.status == 200)
                #expect(any.body == "any")
                #expect(any.header("Content-Type") == "application/octet-stream")
            }
            // JSON still works, and a set of values or another media type is not acceptable.
            let asJSON = try await rest.request(.get, "rpc/rest_page")
            #expect(asJSON.hasJSON(#""<p>hi</p>\n""#))
            let set = try await rest.request(.get, "rpc/rest_pages", headers: ["Accept": "text/html"])
            #expect(set.isError("PGRST107", status: 406))
            let wrongType = try await rest.request(.get, "rpc/rest_page", headers: ["Accept": "text/xml"])
            #expect(wrongType.isError("PGRST107", status: 406))
        }
    }

    /// PostgREST's built-in `application/geo+json`, where PostGIS is installed: a FeatureCollection
    /// of `ST_AsGeoJSON(record)` of each row. PostGIS is not a test dependency, so a stand-in of that
    /// one function (same name and signature, in a schema of its own) plays its part.
    @Test func geoJSONComesFromPostGISsFunctionWhenItIsInstalled() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures("""
                CREATE TABLE public.rest_places (id int PRIMARY KEY, name text, geom json);
                INSERT INTO public.rest_places VALUES (1, 'Pier', '{"type": "Point", "coordinates": [1, 2]}'), (2, 'Dock', NULL);
                GRANT SELECT ON public.rest_places TO anon;
                """)
            let before = try await rest.request(.get, "rest_places", headers: ["Accept": "application/geo+json"])
            #expect(before.isError("PGRST107", status: 406))
            try await rest.addFixtures("""
                CREATE SCHEMA rest_gis;
                CREATE FUNCTION rest_gis.st_asgeojson(r record, geom_column text DEFAULT '', maxdecimaldigits int DEFAULT 9,
                                                      pretty_bool boolean DEFAULT false) RETURNS text LANGUAGE plpgsql STABLE AS $$
                BEGIN
                    RETURN json_build_object('type', 'Feature', 'geometry', to_jsonb(r)->'geom', 'properties', to_jsonb(r) - 'geom')::text;
                END $$;
                GRANT USAGE ON SCHEMA rest_gis TO anon;
                """)
            let places = try await rest.request(.get, "rest_places?order=id", headers: ["Accept": "application/geo+json"])
            #expect(places.status == 200, "\(places.body)")
            #expect(places.header("Content-Type") == "application/geo+json; charset=utf-8")
            #expect(places.hasJSON(#"""
                {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}, "properties": {"id": 1, "name": "Pier"}},
                  {"type": "Feature", "geometry": null, "properties": {"id": 2, "name": "Dock"}}]}
                """#))
            let none = try await rest.request(.get, "rest_places?id=gt.9", headers: ["Accept": "application/geo+json"])
            #expect(none.hasJSON(#"{"type": "FeatureCollection", "features": []}"#))
        }
    }
}
