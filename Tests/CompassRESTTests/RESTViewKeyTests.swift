import Foundation
import Testing

@testable import CompassREST

/// What PostgREST infers about views and checks first: a view's primary key is the one of the
/// table whose key columns it shows; a missing relationship is reported before a missing column.
@Suite("REST view keys and check order", .serialized)
struct RESTViewKeyTests {
    static let pairsSQL = """
        CREATE TABLE public.rest_pairs (k1 int, k2 text, extra int, PRIMARY KEY (k1, k2));
        CREATE VIEW public.rest_pairs_view AS SELECT extra, k2, k1 FROM public.rest_pairs;
        CREATE VIEW public.rest_pairs_partial AS SELECT k1, extra FROM public.rest_pairs;
        GRANT SELECT, INSERT, UPDATE ON public.rest_pairs, public.rest_pairs_view, public.rest_pairs_partial
            TO anon, authenticated, service_role;
        """

    /// PostgREST follows a view's columns through views of the extra search path's schemas (not
    /// through views of any other schema) to the table whose foreign key relates them.
    @Test func relationshipsHoldThroughViewsOfTheExtraSearchPath() async throws {
        var configuration = RESTConfiguration()
        configuration.extraSearchPath = ["public", "rest_mid"]
        try await RESTHarness.with(configuration: configuration) { rest in
            try await rest.addFixtures(
                """
                CREATE SCHEMA rest_mid; CREATE SCHEMA rest_hidden;
                CREATE TABLE public.rest_buyers (id int PRIMARY KEY, name text);
                CREATE TABLE public.rest_purchases (id int PRIMARY KEY, buyer_id int REFERENCES public.rest_buyers, item text);
                INSERT INTO public.rest_buyers VALUES (1, 'ann'); INSERT INTO public.rest_purchases VALUES (10, 1, 'pen');
                CREATE VIEW rest_mid.buyers AS SELECT * FROM public.rest_buyers;
                CREATE VIEW rest_hidden.buyers AS SELECT * FROM public.rest_buyers;
                CREATE VIEW public.rest_buyers_chain AS SELECT * FROM rest_mid.buyers;
                CREATE VIEW public.rest_buyers_hidden AS SELECT * FROM rest_hidden.buyers;
                GRANT SELECT ON public.rest_purchases, public.rest_buyers_chain, public.rest_buyers_hidden TO anon;
                """)
            let chained = try await rest.request(.get, "rest_buyers_chain?select=name,rest_purchases(item)")
            #expect(chained.status == 200, "\(chained)")
            #expect(chained.body == #"[{"name":"ann","rest_purchases":[{"item": "pen"}]}]"#)
            let embedded = try await rest.request(.get, "rest_purchases?select=item,rest_buyers_chain(name)")
            #expect(embedded.body == #"[{"item":"pen","rest_buyers_chain":{"name": "ann"}}]"#, "\(embedded)")
            let hidden = try await rest.request(.get, "rest_buyers_hidden?select=name,rest_purchases(item)")
            #expect(hidden.isError("PGRST200", status: 400), "\(hidden)")
        }
    }

    @Test func aViewShowingATablesKeyHasThatKey() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.pairsSQL)
            let headersOnly = ["Prefer": "return=headers-only"]
            let created = try await rest.request(.post, "rest_pairs_view", headers: headersOnly, body: #"{"k1": 1, "k2": "test", "extra": 2}"#)
            #expect(created.status == 201)
            #expect(created.header("Location") == "/rest_pairs_view?k2=eq.test&k1=eq.1")
            // A key's text is percent-encoded, so following the Location filters by the same value.
            let odd = try await rest.request(.post, "rest_pairs_view", headers: headersOnly, body: #"{"k1": 2, "k2": "é/ü?&=# x", "extra": 2}"#)
            #expect(odd.header("Location") == "/rest_pairs_view?k2=eq.%C3%A9%2F%C3%BC%3F%26%3D%23%20x&k1=eq.2")
            // The key decides upserts through the view too.
            let merged = try await rest.request(
                .post, "rest_pairs_view", headers: ["Prefer": "resolution=merge-duplicates"], body: #"{"k1": 1, "k2": "test", "extra": 3}"#)
            #expect(merged.status == 200)  // only updated: PostgREST answers 200
            #expect(try await rest.count("SELECT extra FROM public.rest_pairs WHERE k1 = 1") == 3)
            // A view that shows part of the key has none.
            let partial = try await rest.request(.post, "rest_pairs_partial", headers: headersOnly, body: #"{"k1": 2, "extra": 4}"#)
            #expect(partial.status == 400)
            let keyless = try await rest.request(.post, "rest_pairs_partial?columns=extra", headers: headersOnly, body: #"{"extra": 4}"#)
            #expect(keyless.header("Location") == nil)
        }
    }

    @Test func aViewJoiningTwoTablesHasBothKeysWhateverItsWriteRulesReturn() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                """
                CREATE TABLE public.rest_owners (id int PRIMARY KEY);
                CREATE TABLE public.rest_pets (id int PRIMARY KEY, owner_id int REFERENCES public.rest_owners (id));
                CREATE VIEW public.rest_pet_owners AS
                    SELECT p.id, o.id AS owner_id FROM public.rest_pets AS p LEFT JOIN public.rest_owners AS o ON o.id = p.owner_id;
                CREATE RULE rest_pet_owners_insert AS ON INSERT TO public.rest_pet_owners DO INSTEAD
                    INSERT INTO public.rest_pets (id, owner_id) VALUES (new.id, new.owner_id) RETURNING id, owner_id;
                GRANT SELECT, INSERT ON public.rest_owners, public.rest_pets, public.rest_pet_owners TO anon, authenticated, service_role;
                """)
            let created = try await rest.request(.post, "rest_pet_owners", headers: ["Prefer": "return=headers-only"], body: #"{"id": 1}"#)
            #expect(created.status == 201)
            #expect(created.header("Location") == "/rest_pet_owners?id=eq.1&owner_id=is.null")
        }
    }

    @Test func viewsOverHiddenTablesHaveTheirKeysAndAJunctionViewJoinsManyToMany() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                """
                CREATE SCHEMA rest_hidden;
                CREATE TABLE rest_hidden.actors (id int PRIMARY KEY, name text);
                CREATE TABLE rest_hidden.films (id int PRIMARY KEY, title text);
                CREATE TABLE rest_hidden.roles (
                    film_id int REFERENCES rest_hidden.films (id), actor_id int REFERENCES rest_hidden.actors (id),
                    part text, PRIMARY KEY (film_id, actor_id));
                CREATE TABLE rest_hidden.loose (film_id int REFERENCES rest_hidden.films (id), actor_id int REFERENCES rest_hidden.actors (id));
                INSERT INTO rest_hidden.actors VALUES (1, 'john'), (2, 'mary');
                INSERT INTO rest_hidden.films VALUES (12, 'douze'), (2001, 'odyssey');
                INSERT INTO rest_hidden.roles VALUES (12, 1, 'lead'), (2001, 2, 'lead');
                CREATE VIEW public.rest_actors AS SELECT * FROM rest_hidden.actors;
                CREATE VIEW public.rest_films AS SELECT * FROM rest_hidden.films;
                CREATE VIEW public.rest_roles AS SELECT * FROM rest_hidden.roles;
                CREATE VIEW public.rest_loose AS SELECT * FROM rest_hidden.loose;
                GRANT USAGE ON SCHEMA rest_hidden TO anon, authenticated, service_role;
                GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA rest_hidden TO anon, authenticated, service_role;
                GRANT SELECT, INSERT ON public.rest_actors, public.rest_films, public.rest_roles, public.rest_loose
                    TO anon, authenticated, service_role;
                """)
            let embedded = try await rest.request(.get, "rest_actors?select=name,rest_films(title)&order=id")
            #expect(embedded.status == 200)
            #expect(embedded.hasJSON(#"[{"name": "john", "rest_films": [{"title": "douze"}]}, {"name": "mary", "rest_films": [{"title": "odyssey"}]}]"#))
            let inner = try await rest.request(.get, "rest_films?select=title,rest_actors!inner(name)&rest_actors.name=eq.mary")
            #expect(inner.hasJSON(#"[{"title": "odyssey", "rest_actors": [{"name": "mary"}]}]"#))
            let created = try await rest.request(.post, "rest_actors", headers: ["Prefer": "return=headers-only"], body: #"{"id": 3, "name": "ann"}"#)
            #expect(created.status == 201)
            #expect(created.header("Location") == "/rest_actors?id=eq.3")
            // A junction needs its two keys inside its primary key, as PostgREST requires: rest_loose has none.
            let loose = try await rest.request(.get, "rest_actors?select=rest_films!rest_loose(title)")
            #expect(loose.isError("PGRST200", status: 400))
        }
    }

    /// Subqueries in a view's `WHERE` or in a column's expression name columns of other tables
    /// (here `site_id` of sites): only the view's own columns say what it shows.
    @Test func aViewsSubqueriesDoNotHideWhatItsColumnsShow() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                """
                CREATE TABLE public.rest_projects (project_id int PRIMARY KEY, name text);
                CREATE TABLE public.rest_sites (site_id int PRIMARY KEY, name text, main int REFERENCES public.rest_projects);
                CREATE TABLE public.rest_jobs (
                    job_id int, site_id int REFERENCES public.rest_sites, project_id int REFERENCES public.rest_projects,
                    PRIMARY KEY (job_id, site_id, project_id));
                CREATE VIEW public.rest_main_jobs AS
                    SELECT *, (SELECT s.name FROM public.rest_sites AS s WHERE s.site_id = j.site_id) AS site_name
                      FROM public.rest_jobs AS j
                     WHERE site_id IN (SELECT site_id FROM public.rest_sites WHERE main IS NOT NULL);
                INSERT INTO public.rest_projects VALUES (1, 'bridge'), (2, 'tower');
                INSERT INTO public.rest_sites VALUES (10, 'north', 1), (20, 'south', NULL);
                INSERT INTO public.rest_jobs VALUES (100, 10, 2), (200, 20, 2);
                GRANT SELECT, INSERT ON public.rest_projects, public.rest_sites, public.rest_jobs, public.rest_main_jobs
                    TO anon, authenticated, service_role;
                """)
            // The view keeps its table's foreign keys: it embeds its sites, and joins sites to projects.
            let embedded = try await rest.request(.get, "rest_main_jobs?select=job_id,site_name,rest_sites(name)")
            #expect(embedded.hasJSON(#"[{"job_id": 100, "site_name": "north", "rest_sites": {"name": "north"}}]"#))
            let manyToMany = try await rest.request(.get, "rest_sites?select=name,rest_projects!rest_main_jobs(name)&order=site_id")
            #expect(manyToMany.status == 200)
            #expect(manyToMany.hasJSON(#"[{"name": "north", "rest_projects": [{"name": "tower"}]}, {"name": "south", "rest_projects": []}]"#))
            // ... and its key.
            let created = try await rest.request(
                .post, "rest_main_jobs?columns=job_id,site_id,project_id", headers: ["Prefer": "return=headers-only"],
                body: #"{"job_id": 300, "site_id": 10, "project_id": 1}"#)
            #expect(created.status == 201)
            #expect(created.header("Location") == "/rest_main_jobs?job_id=eq.300&site_id=eq.10&project_id=eq.1")
        }
    }

    /// PGRST201 lists the candidates in PostgREST's order (one-to-many first), and a table whose
    /// only junction is hidden gets PGRST200 without a suggestion of some other table.
    @Test func embeddingErrorsListAndSuggestAsPostgREST() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                """
                CREATE TABLE public.rest_agents (id int PRIMARY KEY, department_id int);
                CREATE TABLE public.rest_departments (id int PRIMARY KEY, head_id int REFERENCES public.rest_agents (id));
                ALTER TABLE public.rest_agents ADD CONSTRAINT rest_agents_department_fkey
                    FOREIGN KEY (department_id) REFERENCES public.rest_departments (id);
                CREATE SCHEMA rest_private;
                CREATE TABLE public.rest_end_a (id int PRIMARY KEY);
                CREATE TABLE public.rest_end_b (id int PRIMARY KEY);
                CREATE TABLE rest_private.ends (
                    a int REFERENCES public.rest_end_a, b int REFERENCES public.rest_end_b, PRIMARY KEY (a, b));
                GRANT SELECT ON public.rest_agents, public.rest_departments, public.rest_end_a, public.rest_end_b
                    TO anon, authenticated, service_role;
                """)
            let ambiguous = try await rest.request(.get, "rest_agents?select=*,rest_departments(*)")
            #expect(ambiguous.isError("PGRST201", status: 300))
            let listed = (ambiguous.object["details"] as? [[String: Any]])?.map { $0["cardinality"] as? String }
            #expect(listed == ["one-to-many", "many-to-one"])
            #expect(ambiguous.object["hint"] as? String == """
                Try changing 'rest_departments' to one of the following: 'rest_departments!rest_departments_head_id_fkey', \
                'rest_departments!rest_agents_department_fkey'. Find the desired relationship in the 'details' key.
                """)
            let hidden = try await rest.request(.get, "rest_end_a?select=rest_end_b(*)")
            #expect(hidden.isError("PGRST200", status: 400))
            #expect(hidden.object["hint"] is NSNull)
        }
    }

    @Test func aMissingRelationshipIsReportedBeforeAMissingColumn() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(RESTHarness.computedSQL)
            let both = try await rest.request(.get, "rest_games?select=nope,rest_makerz(id)")
            #expect(both.isError("PGRST200", status: 400))
            #expect(both.object["hint"] as? String == "Perhaps you meant 'rest_makers' instead of 'rest_makerz'.")
            let column = try await rest.request(.get, "rest_games?select=nope,rest_makers(id)")
            #expect(column.isError("42703", status: 400))
        }
    }
}
