import Foundation
import Testing

@testable import CompassREST

/// PostgREST's data representations: a domain with implicit casts to and from json and text is
/// answered, filtered and written through them.
@Suite("REST data representations", .serialized)
struct RESTRepresentationTests {
    @Test func repliesShowTheDomainThroughItsJSONCast() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(RESTHarness.representationsSQL)
            let colors = try await rest.request(.get, "rest_labels?select=id,color&order=id")
            #expect(colors.hasJSON(##"[{"id": 1, "color": "#FF0000"}, {"id": 2, "color": "#00FF00"}, {"id": 3, "color": null}]"##))
            let star = try await rest.request(.get, "rest_labels?id=eq.1")
            #expect(star.hasJSON(##"[{"id": 1, "name": "red", "color": "#FF0000"}]"##))
            let cast = try await rest.request(.get, "rest_labels?select=c:color::text&id=eq.2")
            #expect(cast.hasJSON(##"[{"c": "\"#00FF00\""}]"##))
            let embedded = try await rest.request(.get, "rest_label_uses?select=id,rest_labels(*)")
            #expect(embedded.hasJSON(##"[{"id": 10, "rest_labels": {"id": 1, "name": "red", "color": "#FF0000"}}]"##))
            // Order reads the stored value.
            let ordered = try await rest.request(.get, "rest_labels?select=id&color=not.is.null&order=color.desc")
            #expect(ordered.array.map { $0["id"] as? Int } == [1, 2])
        }
    }

    @Test func filtersReadTheirValuesThroughTheTextCast() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(RESTHarness.representationsSQL)
            let equal = try await rest.request(.get, "rest_labels?select=id&color=eq.00FF00")
            #expect(equal.hasJSON(##"[{"id": 2}]"##))
            let listed = try await rest.request(.get, "rest_labels?select=id&color=in.(FF0000,00FF00)&order=id")
            #expect(listed.hasJSON(##"[{"id": 1}, {"id": 2}]"##))
            let notListed = try await rest.request(.get, "rest_labels?select=id&color=not.in.(FF0000)")
            #expect(notListed.hasJSON(##"[{"id": 2}]"##))
            let across = try await rest.request(.get, "rest_label_uses?select=id,rest_labels!inner(name)&rest_labels.color=eq.FF0000")
            #expect(across.hasJSON(##"[{"id": 10, "rest_labels": {"name": "red"}}]"##))
        }
    }

    @Test func writesReadBodiesThroughTheJSONCast() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(RESTHarness.representationsSQL)
            let prefer = ["Prefer": "return=representation"]
            let posted = try await rest.request(.post, "rest_labels", headers: prefer, body: ##"{"id": 4, "name": "blue", "color": "#0000FF"}"##)
            #expect(posted.status == 201)
            #expect(posted.hasJSON(##"[{"id": 4, "name": "blue", "color": "#0000FF"}]"##))
            #expect(try await rest.count("SELECT color::int FROM public.rest_labels WHERE id = 4") == 255)
            let patched = try await rest.request(.patch, "rest_labels?id=eq.4&select=color", headers: prefer, body: ##"{"color": "#000001"}"##)
            #expect(patched.hasJSON(##"[{"color": "#000001"}]"##))
            let upserted = try await rest.request(
                .post, "rest_labels", headers: ["Prefer": "resolution=merge-duplicates"], body: ##"[{"id": 4, "name": "blue", "color": "#000002"}]"##)
            #expect(upserted.status == 200)  // only updated: PostgREST answers 200
            #expect(try await rest.count("SELECT color::int FROM public.rest_labels WHERE id = 4") == 2)
            let invalid = try await rest.request(.post, "rest_labels", body: ##"{"id": 5, "color": "#GG0000"}"##)
            #expect(invalid.status == 400)
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_labels WHERE id = 5") == 0)
        }
    }

    @Test func aDomainOfADomainOfTsvectorIsSearchedAsItIs() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                """
                CREATE DOMAIN public.rest_words AS tsvector CHECK (VALUE IS NOT NULL);
                CREATE DOMAIN public.rest_some_words AS public.rest_words CHECK (length(VALUE) > 0);
                CREATE TABLE public.rest_texts (id int PRIMARY KEY, words public.rest_some_words);
                CREATE VIEW public.rest_texts_view AS SELECT id, words FROM public.rest_texts;
                CREATE FUNCTION public.rest_all_texts() RETURNS SETOF public.rest_texts LANGUAGE sql STABLE AS 'SELECT * FROM public.rest_texts';
                GRANT SELECT ON public.rest_texts, public.rest_texts_view TO anon;
                INSERT INTO public.rest_texts VALUES (1, to_tsvector('simple', 'the art of war')), (2, to_tsvector('simple', 'peace'));
                """)
            for path in ["rest_texts", "rest_texts_view", "rpc/rest_all_texts"] {
                let found = try await rest.request(.get, path + "?select=id&words=fts(simple).art")
                #expect(found.hasJSON(#"[{"id": 1}]"#), "\(path): \(found.body)")
            }
        }
    }
}
