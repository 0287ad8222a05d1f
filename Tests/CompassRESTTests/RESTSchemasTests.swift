import CompassHTTP
import Foundation
import HTTPTypes
import Testing

@testable import CompassREST

/// More than one exposed schema (`COMPASS_REST_SCHEMAS`): the first is the default, a request
/// names another with `Accept-Profile` (reads) or `Content-Profile` (writes, calls), as PostgREST.
@Suite("REST exposed schemas and profiles", .serialized)
struct RESTSchemasTests {
    static let v2SQL = """
        CREATE SCHEMA rest_v2;
        CREATE TABLE rest_v2.parents (id int PRIMARY KEY, name text);
        CREATE TABLE rest_v2.children (id int PRIMARY KEY, parent_id int REFERENCES rest_v2.parents (id), name text);
        INSERT INTO rest_v2.parents VALUES (1, 'v2 parent');
        INSERT INTO rest_v2.children VALUES (1, 1, 'v2 child');
        CREATE FUNCTION rest_v2.whoami() RETURNS text LANGUAGE sql AS $$ SELECT 'v2' $$;
        GRANT USAGE ON SCHEMA rest_v2 TO anon, authenticated, service_role;
        GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA rest_v2 TO anon, authenticated, service_role;
        GRANT EXECUTE ON FUNCTION rest_v2.whoami() TO anon, authenticated, service_role;
        """

    static var twoSchemas: RESTConfiguration {
        var configuration = RESTConfiguration()
        configuration.schemas = ["public", "rest_v2"]
        return configuration
    }

    @Test func profilesChooseTheSchemaAndTheReplyNamesIt() async throws {
        try await RESTHarness.with(configuration: Self.twoSchemas) { rest in
            try await rest.addFixtures(Self.v2SQL)
            let byDefault = try await rest.request(.get, "schools?select=id&limit=1")
            #expect(byDefault.status == 200)
            #expect(byDefault.header("Content-Profile") == "public")
            let missing = try await rest.request(.get, "parents")
            #expect(missing.isError("PGRST205", status: 404))

            let read = try await rest.request(.get, "parents?select=name,children(name)", headers: ["Accept-Profile": "rest_v2"])
            #expect(read.status == 200)
            #expect(read.header("Content-Profile") == "rest_v2")
            #expect(read.hasJSON(#"[{"name": "v2 parent", "children": [{"name": "v2 child"}]}]"#))

            let written = try await rest.request(
                .post, "parents", headers: ["Content-Profile": "rest_v2", "Prefer": "return=representation"], body: #"{"id": 2, "name": "new"}"#)
            #expect(written.status == 201)
            #expect(written.header("Content-Profile") == "rest_v2")
            #expect(try await rest.count("SELECT count(*)::int FROM rest_v2.parents") == 2)
            // A write reads Content-Profile, not Accept-Profile.
            let wrongHeader = try await rest.request(.post, "parents", headers: ["Accept-Profile": "rest_v2"], body: #"{"id": 3}"#)
            #expect(wrongHeader.isError("PGRST205", status: 404))

            let called = try await rest.request(.post, "rpc/whoami", headers: ["Content-Profile": "rest_v2"], body: "{}")
            #expect(called.status == 200)
            #expect(called.body == #""v2""#)
        }
    }

    @Test func anUnexposedSchemaIsRefusedWithTheExposedOnes() async throws {
        try await RESTHarness.with(configuration: Self.twoSchemas) { rest in
            try await rest.addFixtures(Self.v2SQL)
            for (method, header) in [(HTTPRequest.Method.get, "Accept-Profile"), (.post, "Content-Profile")] {
                let refused = try await rest.request(method, "parents", headers: [header: "auth"], body: method == .post ? #"{"id": 9}"# : nil)
                #expect(refused.isError("PGRST106", status: 406))
                #expect(refused.object["message"] as? String == "Invalid schema: auth")
                #expect(refused.object["hint"] as? String == "Only the following schemas are exposed: public, rest_v2")
            }
            #expect(try await rest.count("SELECT count(*)::int FROM rest_v2.parents WHERE id = 9") == 0)
        }
    }

    @Test func theSettingIsAListOfDistinctNames() throws {
        let read = try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_SCHEMAS": "public, api"]))
        #expect(read.schemas == ["public", "api"])
        #expect(RESTConfiguration().schemas == ["public"])
        for bad in ["public,", " , api", "public,public"] {
            #expect(throws: ConfigurationError.self) { try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_SCHEMAS": bad])) }
        }
    }

    /// A schema, table and column named in Arabic script, as PostgREST's own Unicode case: the
    /// path arrives percent-encoded, the body and the reply carry the names as they are.
    @Test func unicodeNamesReadAndWrite() async throws {
        var configuration = RESTConfiguration()
        configuration.schemas = ["تست"]
        try await RESTHarness.with(configuration: configuration) { rest in
            try await rest.addFixtures("""
                CREATE SCHEMA تست;
                CREATE TABLE تست.موارد (هویت bigint PRIMARY KEY);
                GRANT USAGE ON SCHEMA تست TO anon;
                GRANT SELECT, INSERT, DELETE ON تست.موارد TO anon;
                """)
            let path = "%D9%85%D9%88%D8%A7%D8%B1%D8%AF"
            let empty = try await rest.request(.get, path)
            #expect(empty.status == 200)
            #expect(empty.body == "[]")
            let created = try await rest.request(.post, path, headers: ["Prefer": "return=representation"], body: #"{"هویت": 1}"#)
            #expect(created.status == 201)
            #expect(created.hasJSON(#"[{"هویت": 1}]"#))
            let read = try await rest.request(.get, path + "?%D9%87%D9%88%DB%8C%D8%AA=eq.1")
            #expect(read.hasJSON(#"[{"هویت": 1}]"#))
            let deleted = try await rest.request(.delete, path + "?%D9%87%D9%88%DB%8C%D8%AA=eq.1")
            #expect(deleted.status == 204)
            #expect(deleted.header("Content-Type") == nil)
            #expect(try await rest.count("SELECT count(*) FROM تست.موارد") == 0)
        }
    }

    /// Every request searches `public` after the exposed schema (PostgREST's `db-extra-search-path`),
    /// so a function of another exposed schema finds the types and functions of `public` it names
    /// without a schema: an argument of an enum there, a helper its body calls.
    @Test func theExtraSearchPathReachesPublicFromAnotherSchema() async throws {
        try await RESTHarness.with(configuration: Self.twoSchemas) { rest in
            try await rest.addFixtures(Self.v2SQL + """
                CREATE TYPE public.rest_mood AS ENUM ('calm', 'busy');
                CREATE FUNCTION public.rest_shout(text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT upper($1) $$;
                CREATE FUNCTION rest_v2.describe(mood public.rest_mood) RETURNS text LANGUAGE sql STABLE
                    AS $$ SELECT rest_shout(mood::text) $$;
                GRANT EXECUTE ON FUNCTION rest_v2.describe(public.rest_mood) TO anon;
                """)
            let call = try await rest.request(.get, "rpc/describe?mood=busy", headers: ["Accept-Profile": "rest_v2"])
            #expect(call.status == 200, "\(call.body)")
            #expect(call.body == #""BUSY""#)
        }
        var narrow = Self.twoSchemas
        narrow.extraSearchPath = []
        try await RESTHarness.with(configuration: narrow) { rest in
            try await rest.addFixtures(Self.v2SQL + """
                CREATE FUNCTION public.rest_shout(text) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT upper($1) $$;
                CREATE FUNCTION rest_v2.shout(words text) RETURNS text LANGUAGE sql STABLE AS $$ SELECT rest_shout(words) $$;
                GRANT EXECUTE ON FUNCTION rest_v2.shout(text) TO anon;
                """)
            let call = try await rest.request(.get, "rpc/shout?words=hi", headers: ["Accept-Profile": "rest_v2"])
            #expect(call.isError("42883", status: 404), "\(call.body)")
        }
    }
}
