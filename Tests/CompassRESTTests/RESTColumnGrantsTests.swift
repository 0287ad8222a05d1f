import Foundation
import Testing

/// A role granted only some columns writes and reads back those: a write's `RETURNING` names
/// what the reply reads instead of the whole row, as PostgREST's does.
@Suite("REST column-level grants on writes", .serialized)
struct RESTColumnGrantsTests {
    static let fixtures = """
        CREATE TABLE public.rest_members (
            id int PRIMARY KEY, email text, secret text DEFAULT 'hidden', team_id int REFERENCES public.rest_teams (id));
        GRANT SELECT (id, email, team_id), INSERT (id, email, team_id), UPDATE (email), DELETE ON public.rest_members TO anon;
        GRANT SELECT ON public.rest_teams TO anon;
        INSERT INTO public.rest_teams VALUES (1, 'red');
        INSERT INTO public.rest_members VALUES (1, 'a@example.org', 's1', 1), (2, 'b@example.org', 's2', 1);
        """

    @Test func writesReturnTheGrantedColumnsTheyAskFor() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures("CREATE TABLE public.rest_teams (id int PRIMARY KEY, name text);\n" + Self.fixtures)
            let representation = ["Prefer": "return=representation"]
            let inserted = try await rest.request(
                .post, "rest_members?select=id,email,rest_teams(name)", headers: representation,
                body: #"{"id": 3, "email": "c@example.org", "team_id": 1}"#)
            #expect(inserted.status == 201)
            #expect(inserted.hasJSON(#"[{"id": 3, "email": "c@example.org", "rest_teams": {"name": "red"}}]"#))
            let updated = try await rest.request(
                .patch, "rest_members?id=eq.1&select=email&order=email", headers: representation, body: #"{"email": "z@example.org"}"#)
            #expect(updated.status == 200)
            #expect(updated.hasJSON(#"[{"email": "z@example.org"}]"#))
            let deleted = try await rest.request(.delete, "rest_members?id=eq.2&select=id,email", headers: representation)
            #expect(deleted.status == 200)
            #expect(deleted.hasJSON(#"[{"id": 2, "email": "b@example.org"}]"#))
            // Asking for a column not granted is still Postgres's refusal, and changes nothing.
            let refused = try await rest.request(.delete, "rest_members?id=eq.3&select=secret", headers: representation)
            #expect(refused.isError("42501", status: 401))
            #expect(try await rest.count("SELECT count(*) FROM public.rest_members WHERE id = 3") == 1)
        }
    }
}
