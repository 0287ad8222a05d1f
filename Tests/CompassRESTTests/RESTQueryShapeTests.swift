import Foundation
import Postgres
import Testing

@testable import CompassREST

/// PostgREST's read semantics the apps' own queries do not exercise: JSON paths with casts,
/// full-text search configurations, empty selects and embeds, embed filters, stripped nulls.
@Suite("REST query shapes", .serialized)
struct RESTQueryShapeTests {
    static let pointsAdjusted = "9a000000-0000-4000-8000-000000000005"
    static let appAdded = "9a000000-0000-4000-8000-000000000003"
    static let firstInteraction = "1a000000-0000-4000-8000-000000000001"

    @Test func aCastOnAJSONPathAppliesToTheValue() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.maria)
            let points = try await rest.request(
                .get, "parent_activities?select=after:changes->points->>after::integer,changes->points->>before::json&id=eq.\(Self.pointsAdjusted)",
                token: token)
            #expect(points.status == 200)
            #expect(points.array.first?["after"] as? Int == 150)
            #expect(points.array.first?["before"] as? Int == 120)
            let wrong = try await rest.request(.get, "parent_activities?select=changes->app->>after::integer&id=eq.\(Self.appAdded)", token: token)
            #expect(wrong.isError("22P02", status: 400))
            #expect(wrong.object["message"] as? String == #"invalid input syntax for type integer: "Khan Academy""#)
            let filtered = try await rest.request(.get, "parent_activities?select=id&changes->points->>after=eq.150", token: token)
            #expect(filtered.array.map { $0["id"] as? String } == [Self.pointsAdjusted])
            let ordered = try await rest.request(
                .get, "parent_activities?select=after:changes->points->after&changes->points->after=not.is.null&order=changes->points->after.desc",
                token: token)
            let values = ordered.array.compactMap { $0["after"] as? Int }
            #expect(values.count >= 1)
            #expect(values == values.sorted(by: >))
        }
    }

    @Test func pathsOnArraysAndCompositesReadThemAsJSON() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let first = try await rest.request(
                .get, "interactions?select=first:attachments->>0,second:attachments->1,last:attachments->>-1&id=eq.\(Self.firstInteraction)",
                token: token)
            #expect(first.status == 200)
            #expect(first.array.first?["first"] as? String == "highlights-2025.mp4")
            #expect(first.array.first?["second"] as? String == "transcript.pdf")
            #expect(first.array.first?["last"] as? String == "transcript.pdf")
            let byIndex = try await rest.request(.get, "interactions?select=subject&attachments->>0=eq.transcript-fall.pdf", token: token)
            #expect(byIndex.array.map { $0["subject"] as? String } == ["Updated transcript"])

            try await rest.addSamples()
            let composite = try await rest.request(.get, "rest_samples?select=id,pair->i,n:numbers->>1::int&pair->>i=gt.0.5")
            #expect(composite.status == 200)
            #expect(composite.array.count == 1)
            #expect(composite.array.first?["i"] as? Double == 0.6)
            #expect(composite.array.first?["n"] as? Int == 12)
            let ordered = try await rest.request(.get, "rest_samples?select=id&order=numbers->0.desc")
            #expect(ordered.array.map { $0["id"] as? Int } == [2, 1])
            // Postgres's own name for an array type casts too: `::_text` is `text[]`.
            let asTexts = try await rest.request(.get, "rest_samples?select=t:numbers::_text&order=id&limit=1")
            #expect(asTexts.status == 200)
            #expect((asTexts.array.first?["t"] as? [String])?.isEmpty == false)
        }
    }

    @Test func fullTextSearchUsesTheConfigurationOnBothSides() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            // "the" is an English stop word but a French word: found only if the text is read as French too.
            let expected = try await rest.count(
                "SELECT count(*)::int FROM public.interactions WHERE logged_by = \(Demo.sofia) AND to_tsvector('french', content) @@ plainto_tsquery('french', 'the')")
            #expect(expected > 0)
            let french = try await rest.request(.get, "interactions?select=id&content=plfts(french).the", token: token)
            #expect(french.status == 200)
            #expect(french.array.count == expected)
            let english = try await rest.request(.get, "interactions?select=id&content=fts(english).transcript", token: token)
            #expect(english.array.count == 1)
            let phrase = try await rest.request(.get, "interactions?select=id&subject=phfts.highlight%20reel", token: token)
            #expect(phrase.array.count == 2)

            let jsonb = try await rest.request(
                .get, "parent_activities?select=id&changes=wfts(english).learning&order=id", token: try await rest.token(Demo.maria))
            #expect(jsonb.status == 200)
            #expect(jsonb.array.map { $0["id"] as? String } == ["9a000000-0000-4000-8000-000000000003", "9a000000-0000-4000-8000-000000000004"])

            try await rest.addSamples()
            let vector = try await rest.request(.get, "rest_samples?select=id&words=fts(french).paris")
            #expect(vector.status == 200)
            #expect(vector.array.map { $0["id"] as? Int } == [1])
        }
    }

    @Test func emptySelectsAndEmptyEmbeds() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let all = try await rest.request(.get, "schools?select=&id=eq.\(Demo.stanford)", token: token)
            #expect(all.status == 200)
            #expect(Set(all.array.first?.keys.map { $0 } ?? []) == ["id", "family_unit_id", "user_id", "name", "status", "created_at"])
            let hidden = try await rest.request(.get, "interactions?select=id,schools()&limit=1", token: token)
            #expect(hidden.status == 200)
            #expect(hidden.array.first.map { Array($0.keys) } == ["id"])
            let stanford = try await rest.count(
                "SELECT count(*)::int FROM public.interactions WHERE logged_by = \(Demo.sofia) AND school_id = \(Demo.stanford)")
            let inner = try await rest.request(
                .get, "interactions?select=id,schools!inner()&schools.name=eq.Stanford%20University", token: token)
            #expect(inner.array.count == stanford)
            #expect(inner.array.allSatisfy { $0.keys.sorted() == ["id"] })
            let nested = try await rest.request(.get, "coaches?select=first_name,schools(family_units())&limit=1", token: token)
            #expect(nested.array.first.map { Array($0.keys) } == ["first_name"])
            let encoded = try await rest.request(.get, "%69nteractions?select=id&limit=1", token: token)
            #expect(encoded.status == 200)
            let nowhere = try await rest.request(.get, "interactions/nested/path", token: token)
            #expect(nowhere.isError("PGRST125", status: 404))
            #expect(nowhere.header("Proxy-Status") == "PostgREST; error=PGRST125")
            #expect(try await rest.request(.get, "rpc/nothing_here", token: token).header("Proxy-Status") == "PostgREST; error=PGRST202")
        }
    }

    @Test func filtersOnAnEmbedTestWhetherItFoundARow() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let withoutSchool = try await rest.count(
                "SELECT count(*)::int FROM public.interactions WHERE logged_by = \(Demo.sofia) AND school_id IS NULL")
            let total = try await rest.count("SELECT count(*)::int FROM public.interactions WHERE logged_by = \(Demo.sofia)")
            let none = try await rest.request(.get, "interactions?select=id,schools()&schools=is.null", token: token)
            #expect(none.status == 200)
            #expect(none.array.count == withoutSchool)
            let some = try await rest.request(.get, "interactions?select=id,school:schools(name)&school=not.is.null", token: token)
            #expect(some.array.count == total - withoutSchool)
            #expect(some.array.allSatisfy { ($0["school"] as? [String: Any])?["name"] is String })
            let either = try await rest.request(
                .get, "interactions?select=id,schools()&or=(schools.is.null,type.eq.camp)", token: token, headers: ["Prefer": "count=exact"])
            let camps = try await rest.count(
                "SELECT count(*)::int FROM public.interactions WHERE logged_by = \(Demo.sofia) AND type = 'camp' AND school_id IS NOT NULL")
            #expect(either.array.count == withoutSchool + camps)
            let coached = try await rest.request(
                .get, "schools?select=name,coaches(first_name)&coaches.first_name=eq.Erin&coaches=not.is.null", token: token)
            #expect(coached.array.map { $0["name"] as? String } == ["Stanford University"])
            let unmatched = try await rest.request(
                .get, "schools?select=name,coaches()&coaches.first_name=eq.Erin&coaches=is.null&order=name", token: token)
            #expect(unmatched.array.map { $0["name"] as? String } == ["UCLA", "University of North Carolina"])
        }
    }

    @Test func nullsStrippedMediaTypes() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let textMessage = "1a000000-0000-4000-8000-000000000010"
            let array = try await rest.request(
                .get, "interactions?select=id,subject,type&id=eq.\(textMessage)", token: token,
                headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped"])
            #expect(array.status == 200)
            #expect(array.header("Content-Type") == "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8")
            #expect(array.array.first?.keys.sorted() == ["id", "type"])
            let object = try await rest.request(
                .get, "interactions?select=id,subject&id=eq.\(textMessage)", token: token,
                headers: ["Accept": "application/vnd.pgrst.object+json;nulls=stripped"])
            #expect(object.header("Content-Type") == "application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8")
            #expect(object.object.keys.sorted() == ["id"])
            let plain = try await rest.request(
                .get, "interactions?select=id,subject&id=eq.\(textMessage)", token: token,
                headers: ["Accept": "application/vnd.pgrst.array+json"])
            #expect(plain.header("Content-Type") == "application/json; charset=utf-8")
            #expect(plain.array.first?.keys.sorted() == ["id", "subject"])
            let preferred = try await rest.request(
                .get, "interactions?select=id&limit=1", token: token, headers: ["Accept": "text/html;q=1, application/json;q=0.5"])
            #expect(preferred.status == 200)
            let refused = try await rest.request(.get, "interactions?select=id", token: token, headers: ["Accept": "text/html"])
            #expect(refused.isError("PGRST107", status: 406))
        }
    }
}
