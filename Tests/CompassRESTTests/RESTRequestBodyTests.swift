import Foundation
import HTTPTypes
import Testing

@testable import CompassREST

/// Bodies as PostgREST reads them: forms and CSV for writes and calls, `missing=default` with
/// identity, generated and domain columns, `VARIADIC` parameters, and single unnamed
/// text/bytea parameters.
@Suite("REST request bodies", .serialized)
struct RESTRequestBodyTests {
    static let form = ["Content-Type": "application/x-www-form-urlencoded"]
    static let representation = "return=representation"

    @Test func formsAndCSVInsertRowsAsStrings() async throws {
        try await RESTHarness.with { rest in
            try await rest.addBodySamples()
            let form = try await rest.request(
                .post, "rest_body_rows", headers: Self.form.merging(["Prefer": Self.representation]) { $1 },
                body: "label=forms+are+fun&amount=2.5&label=last+wins")
            #expect(form.status == 201)
            let row = try #require(form.array.first)
            #expect(row["label"] as? String == "last wins")
            #expect(row["doubled"] as? Double == 5)
            #expect(row["code"] as? String == "X1")
            let csv = try await rest.request(
                .post, "rest_body_rows?select=label,amount",
                headers: ["Content-Type": "text/csv", "Accept": "text/csv", "Prefer": Self.representation],
                body: "label,amount\nfirst,1\n\"second, quoted\",NULL\n")
            #expect(csv.status == 201)
            #expect(csv.body == "label,amount\nfirst,1\n\"second, quoted\",")
            let ragged = try await rest.request(.post, "rest_body_rows", headers: ["Content-Type": "text/csv"], body: "label,amount\nx")
            #expect(ragged.isError("PGRST102", status: 400))
            #expect(ragged.object["message"] as? String == "All lines must have same number of fields")
            // CRLF and CR line ends, quotes doubled inside quotes, non-ASCII text.
            let lineEnds = try await rest.request(
                .post, "rest_body_rows?select=label", headers: ["Content-Type": "text/csv", "Prefer": Self.representation],
                body: "label,amount\r\n\"say \"\"hé\"\"\",1\rthird,2\r\n")
            #expect(lineEnds.status == 201)
            #expect(lineEnds.array.map { $0["label"] as? String } == ["say \"hé\"", "third"])
            // Blank lines are skipped, as PostgREST's CSV parser skips them; a header needs its line break.
            let blanks = try await rest.request(
                .post, "rest_body_rows?select=label", headers: ["Content-Type": "text/csv", "Prefer": Self.representation],
                body: "label,amount\nfourth,1\n\nfifth,2\n")
            #expect(blanks.array.map { $0["label"] as? String } == ["fourth", "fifth"])
            for headerless in ["", "label,amount"] {
                let refused = try await rest.request(.post, "rest_body_rows", headers: ["Content-Type": "text/csv"], body: headerless)
                #expect(refused.isError("PGRST102", status: 400), "\(headerless)")
            }
            // Quoting as strict as PostgREST's parser: nothing of these is written.
            for (malformed, reason) in [
                ("label,amount\na\"b,1\n", "a quote inside an unquoted field"),
                ("label,amount\n\"a\"b,1\n", "a quoted field must end at its closing quote"),
                ("label,amount\n\"a,1\n", "a quoted field is not closed"),
            ] {
                let refused = try await rest.request(.post, "rest_body_rows", headers: ["Content-Type": "text/csv"], body: malformed)
                #expect(refused.isError("PGRST102", status: 400), "\(malformed)")
                #expect(refused.object["message"] as? String == "Malformed CSV: \(reason)")
            }
            let emptyQuoted = try await rest.request(
                .post, "rest_body_rows?select=label,amount", headers: ["Content-Type": "text/csv", "Prefer": Self.representation],
                body: "label,amount\n\"\",1\r\n\"x\"\"\",\"2\"")
            #expect(emptyQuoted.array.map { $0["label"] as? String } == ["", "x\""], "\(emptyQuoted.body)")
            // One long name over many lines of empty values would repeat the name on every line.
            let expanding = try await rest.request(
                .post, "rest_body_rows", headers: ["Content-Type": "text/csv"],
                body: String(repeating: "l", count: 20_000) + ",m" + String(repeating: "\n,", count: 2_000))
            #expect(expanding.isError("PGRST102", status: 413))
            #expect(expanding.object["message"] as? String == "Request body as JSON would be more than 16 times its size")
            let text = try await rest.request(.post, "rest_body_rows", headers: ["Content-Type": "text/plain"], body: "label")
            #expect(text.isError("PGRST102", status: 400))
            #expect(text.object["message"] as? String == "Content-Type not acceptable: text/plain")
            #expect(try await rest.count("SELECT count(*) FROM public.rest_body_rows") == 9)
        }
    }

    @Test func missingDefaultFillsIdentityDomainAndColumnDefaults() async throws {
        try await RESTHarness.with { rest in
            try await rest.addBodySamples()
            let prefer = ["Prefer": "return=representation, missing=default"]
            let inserted = try await rest.request(
                .post, "rest_body_rows?columns=id,label,amount,code", headers: prefer, body: #"[{"amount": 1}, {"label": "b", "id": 40}]"#)
            #expect(inserted.status == 201)
            #expect(inserted.header("Preference-Applied") == "missing=default, return=representation")
            #expect(inserted.array.map { $0["id"] as? Int } == [1, 40])
            #expect(inserted.array.map { $0["label"] as? String } == ["none", "b"])
            #expect(inserted.array.map { $0["code"] as? String } == ["X1", "X1"])
            // A generated column named in columns= is Postgres's refusal, as under PostgREST.
            let generated = try await rest.request(.post, "rest_body_rows?columns=label,doubled", headers: prefer, body: #"{"label": "g"}"#)
            #expect(generated.isError("428C9", status: 400))
            let patched = try await rest.request(
                .patch, "rest_body_rows?id=eq.40&columns=label,amount", headers: prefer, body: #"{"amount": 3}"#)
            #expect(patched.status == 200)
            #expect(patched.array.first?["label"] as? String == "none")
            #expect(patched.array.first?["doubled"] as? Double == 6)
        }
    }

    @Test func anUpsertThatOnlyMergesAnswers200() async throws {
        try await RESTHarness.with { rest in
            try await rest.addBodySamples()
            let merge = ["Prefer": "return=representation, resolution=merge-duplicates"]
            let created = try await rest.request(.post, "rest_body_rows", headers: merge, body: #"[{"id": 1, "label": "a"}, {"id": 2, "label": "b"}]"#)
            #expect(created.status == 201)
            let mixed = try await rest.request(.post, "rest_body_rows", headers: merge, body: #"[{"id": 2, "label": "B"}, {"id": 3, "label": "c"}]"#)
            #expect(mixed.status == 201)
            let merged = try await rest.request(.post, "rest_body_rows", headers: merge, body: #"[{"id": 1, "label": "A"}, {"id": 3, "label": "C"}]"#)
            #expect(merged.status == 200)
            #expect(merged.array.map { $0["label"] as? String } == ["A", "C"])
            let minimal = try await rest.request(
                .post, "rest_body_rows", headers: ["Prefer": "resolution=merge-duplicates"], body: #"{"id": 1, "label": "again"}"#)
            #expect(minimal.status == 200)
            let empty = try await rest.request(.post, "rest_body_rows", headers: merge, body: "[]")
            #expect(empty.status == 200)
            let plain = try await rest.request(.post, "rest_body_rows", body: #"{"id": 9, "label": "z"}"#)
            #expect(plain.status == 201)
        }
    }

    @Test func callsTakeFormsCSVArraysAndVariadicParameters() async throws {
        try await RESTHarness.with { rest in
            try await rest.addBodySamples()
            let form = try await rest.request(.post, "rpc/rest_body_add", headers: Self.form, body: "a=1&b=2")
            #expect(form.body == "3")
            let csv = try await rest.request(.post, "rpc/rest_body_add", headers: ["Content-Type": "text/csv"], body: "a,b\n4,5\n7,8")
            #expect(csv.body == "9")
            let array = try await rest.request(.post, "rpc/rest_body_add", body: #"[{"a": 10, "b": 1}, {"a": 0, "b": 0}]"#)
            #expect(array.body == "11")
            // No body at all is no arguments; a body of whitespace is JSON that does not parse.
            let noBody = try await rest.request(.post, "rpc/rest_body_join", body: "")
            #expect(noBody.status == 200)
            let blank = try await rest.request(.post, "rpc/rest_body_join", body: " \n")
            #expect(blank.isError("PGRST102", status: 400))
            let repeated = try await rest.request(.get, "rpc/rest_body_join?parts=a&parts=b&parts=c")
            #expect(repeated.body == #""a-b-c""#)
            let json = try await rest.request(.post, "rpc/rest_body_join", body: #"{"parts": ["x", "y"]}"#)
            #expect(json.body == #""x-y""#)
            let formVariadic = try await rest.request(.post, "rpc/rest_body_join", headers: Self.form, body: "parts=p")
            #expect(formVariadic.body == #""p""#)
            let none = try await rest.request(.get, "rpc/rest_body_join")
            #expect(none.body == #""""#)
            let unknown = try await rest.request(.get, "rpc/rest_body_add?a=1&b=2&c=3")
            #expect(unknown.isError("PGRST202", status: 404))
            #expect(
                unknown.object["details"] as? String
                    == "Searched for the function public.rest_body_add with parameters a, b, c, but no matches were found in the schema cache.")
            let posted = try await rest.request(.post, "rpc/rest_body_add", body: #"{"a": 1, "c": 3}"#)
            #expect(
                posted.object["details"] as? String
                    == "Searched for the function public.rest_body_add with parameters a, c or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.")
        }
    }

    @Test func singleUnnamedParametersTakeTextAndBytesWhole() async throws {
        try await RESTHarness.with { rest in
            try await rest.addBodySamples()
            let shout = try await rest.request(
                .post, "rpc/rest_body_shout", headers: ["Content-Type": "text/plain", "Accept": "text/plain"], body: "quiet words")
            #expect(shout.status == 200)
            #expect(shout.body == "QUIET WORDS")
            #expect(shout.header("Content-Type") == "text/plain; charset=utf-8")
            let asJSON = try await rest.request(.post, "rpc/rest_body_shout", headers: ["Content-Type": "text/plain"], body: "json")
            #expect(asJSON.body == #""JSON""#)
            let notPlain = try await rest.request(.post, "rpc/rest_body_add", headers: ["Accept": "text/plain"], body: #"{"a":1,"b":1}"#)
            #expect(notPlain.isError("PGRST107", status: 406))
            // Only a single value is sent as it is: a set of them is not, as PostgREST refuses it.
            let several = try await rest.request(.post, "rpc/rest_body_echoes", headers: ["Content-Type": "text/plain", "Accept": "text/plain"], body: "hi")
            #expect(several.isError("PGRST107", status: 406))
            #expect(several.object["message"] as? String == "None of these media types are available: text/plain")
            let noText = try await rest.request(.post, "rpc/rest_body_add", headers: ["Content-Type": "text/plain"], body: "1")
            #expect(noText.isError("PGRST202", status: 404))
            #expect(noText.object["message"] as? String == "Could not find the function public.rest_body_add in the schema cache")
            #expect(noText.object["hint"] is NSNull)
            #expect(
                noText.object["details"] as? String
                    == "Searched for the function public.rest_body_add with a single unnamed text parameter, but no matches were found in the schema cache.")
            let bytes: [UInt8] = [0xff, 0x00, 0xfe, 0x41]
            let size = try await rest.requestBytes(.post, "rpc/rest_body_size", contentType: "application/octet-stream", body: bytes)
            #expect(size.body == "4")
            // A function whose unnamed parameter takes no whole body cannot be called by name at
            // all: as in PostgREST it is not in the cache, and the hint names a function that is.
            try await rest.addFixtures("""
                CREATE FUNCTION public.rest_body_shoutz(int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT $1';
                GRANT EXECUTE ON FUNCTION public.rest_body_shoutz(int) TO anon;
                """)
            let uncallable = try await rest.request(.post, "rpc/rest_body_shoutz", body: #"{"x": 1}"#)
            #expect(uncallable.isError("PGRST202", status: 404))
            #expect(uncallable.object["hint"] as? String == "Perhaps you meant to call the function public.rest_body_shout")
        }
    }
}
