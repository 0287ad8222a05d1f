import Foundation
import Testing

@testable import CompassREST

/// A token may name a database role other than anon, authenticated and service_role, as
/// PostgREST allows (Supabase's custom Postgres roles): the request runs as that role, and the
/// database decides whether it may (a role that does not exist, or one the login role may not
/// become, is refused). A superuser role is refused whatever the login role may do.
@Suite("REST custom roles", .serialized)
struct RESTCustomRoleTests {
    static let fixtures = """
        DO $$ BEGIN
          IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'rest_custom_reader') THEN CREATE ROLE rest_custom_reader NOLOGIN; END IF;
        END $$;
        GRANT rest_custom_reader TO current_user;
        CREATE TABLE public.rest_custom (id int PRIMARY KEY, note text);
        INSERT INTO public.rest_custom VALUES (1, 'one'), (2, 'two');
        ALTER TABLE public.rest_custom ENABLE ROW LEVEL SECURITY;
        CREATE POLICY reader_sees_one ON public.rest_custom FOR SELECT TO rest_custom_reader USING (id = 1);
        GRANT SELECT ON public.rest_custom TO rest_custom_reader;
        CREATE FUNCTION public.rest_whoami() RETURNS json LANGUAGE sql STABLE
          AS $$ SELECT json_build_object('user', current_user, 'role', current_setting('request.jwt.claims', true)::json->>'role') $$;
        GRANT EXECUTE ON FUNCTION public.rest_whoami() TO PUBLIC;
        """

    static func token(role: String) -> String {
        let exp = Int(Date().timeIntervalSince1970) + 600
        return RESTWordingTests.token(claims: #"{"role":"\#(role)","sub":"s-1","exp":\#(exp)}"#)
    }

    @Test func theRequestRunsAsTheRoleTheTokenNamesUnderItsPolicies() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.fixtures)
            let token = Self.token(role: "rest_custom_reader")
            let read = try await rest.request(.get, "rest_custom?select=id,note", token: token)
            #expect(read.status == 200, "\(read)")
            #expect(read.body == #"[{"id":1,"note":"one"}]"#, "its policy, not another role's")
            let who = try await rest.request(.post, "rpc/rest_whoami", token: token, body: "{}")
            #expect(who.object["user"] as? String == "rest_custom_reader")
            #expect(who.object["role"] as? String == "rest_custom_reader")
            // Its grants: no INSERT.
            let write = try await rest.request(.post, "rest_custom", token: token, body: #"{"id":3,"note":"three"}"#)
            #expect(write.isError("42501", status: 403), "\(write)")
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_custom") == 2)
        }
    }

    @Test func aRoleTheDatabaseDoesNotHaveIsRefusedInPostgRESTsWords() async throws {
        try await RESTHarness.with { rest in
            for role in ["rest_no_such_role", "none", ""] {
                let reply = try await rest.request(.get, "schools?limit=1", token: Self.token(role: role))
                #expect(reply.isError("22023", status: 401), "\(role): \(reply)")
                #expect(reply.object["message"] as? String == "role \"\(role)\" does not exist", "\(role)")
                #expect(reply.header("WWW-Authenticate") == "Bearer")
                // The OpenAPI root asks the database too.
                let root = try await rest.request(.get, "", token: Self.token(role: role))
                #expect(root.isError("22023", status: 401), "\(role): \(root.status)")
            }
        }
    }

    /// The tests' login role is a superuser, as `make run`'s is: it could become any role.
    @Test func aSuperuserRoleIsRefusedAndNothingRuns() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.fixtures)
            let superuser = try await rest.adminQuery("SELECT rolname::text FROM pg_roles WHERE rolsuper LIMIT 1")[0].decode(String.self, at: 0)
            let token = Self.token(role: superuser)
            let read = try await rest.request(.get, "rest_custom?select=id", token: token)
            #expect(read.isError("42501", status: 403), "\(read)")
            #expect(read.object["message"] as? String == "permission denied to set role \"\(superuser)\"")
            let write = try await rest.request(.post, "rest_custom", token: token, body: #"{"id":3,"note":"three"}"#)
            #expect(write.isError("42501", status: 403), "\(write)")
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_custom") == 2)
            #expect(try await rest.request(.get, "", token: token).isError("42501", status: 403), "the OpenAPI root")
        }
    }
}
