import CompassHTTP
import CompassREST
import Foundation
import Postgres
import Testing

/// PostgREST's `db-pre-request`: `COMPASS_REST_DB_PRE_REQUEST`, or the login role's
/// `pgrst.db_pre_request` (which wins, reread at `NOTIFY pgrst, 'reload config'`), is called by
/// every request inside its transaction, after its role and claims are set; and its
/// `app.settings.*` (`COMPASS_REST_APP_SETTINGS_*`), set in that transaction too.
@Suite("REST pre-request function and app settings", .serialized)
struct RESTPreRequestTests {
    static let fixtures = """
        CREATE TABLE public.rest_gated (id int PRIMARY KEY, note text);
        INSERT INTO public.rest_gated VALUES (1, 'one');
        GRANT SELECT, INSERT ON public.rest_gated TO anon, authenticated;
        CREATE FUNCTION public.rest_gated_echo(word text) RETURNS text LANGUAGE sql AS $$ SELECT word $$;
        GRANT EXECUTE ON FUNCTION public.rest_gated_echo(text) TO anon;
        -- Refuses a request that carries `x-blocked`, else stamps the reply with who asked how.
        CREATE FUNCTION public.rest_check_request() RETURNS void LANGUAGE plpgsql AS $$
        BEGIN
          IF current_setting('request.headers', true)::json->>'x-blocked' IS NOT NULL THEN
            RAISE EXCEPTION 'blocked by the pre-request' USING HINT = 'ask an admin';
          END IF;
          PERFORM set_config('response.headers',
            json_build_array(json_build_object('X-Checked', current_user || ' ' || current_setting('request.method') || ' '
              || current_setting('request.path') || ' ' || coalesce(current_setting('request.jwt.claims', true)::json->>'role', '?')))::text, true);
        END $$;
        GRANT EXECUTE ON FUNCTION public.rest_check_request() TO anon, authenticated;
        CREATE FUNCTION public.rest_other_check() RETURNS void LANGUAGE sql AS $$
          SELECT set_config('response.headers', '[{"X-Checked": "other"}]', true) $$;
        GRANT EXECUTE ON FUNCTION public.rest_other_check() TO anon, authenticated;
        """

    static func configured(_ name: String) -> RESTConfiguration {
        var configuration = RESTConfiguration()
        configuration.preRequest = PreRequestFunction(name)
        return configuration
    }

    @Test func theSettingIsReadAsPostgRESTReadsIt() {
        #expect(PreRequestFunction("public.check_request") == PreRequestFunction("public.check_request"))
        #expect(PreRequestFunction("public.check_request")?.schema == "public")
        #expect(PreRequestFunction("check_request")?.schema == nil)
        #expect(PreRequestFunction(".check_request") == PreRequestFunction("check_request"))
        #expect(PreRequestFunction("a.b.c")?.name == "b.c", "the first dot separates, as PostgREST's toQi")
        #expect(PreRequestFunction("  ") == nil)
        #expect(PreRequestFunction("") == nil)
    }

    @Test func everyMethodCallsItInItsTransactionAndRole() async throws {
        try await RESTHarness.with(configuration: Self.configured("public.rest_check_request")) { rest in
            try await rest.addFixtures(Self.fixtures)
            let read = try await rest.request(.get, "rest_gated?select=id")
            #expect(read.status == 200, "\(read)")
            #expect(read.body == #"[{"id":1}]"#)
            #expect(read.header("X-Checked") == "anon GET /rest_gated anon")

            let user = try await rest.token(UUID())
            let signedIn = try await rest.request(.head, "rest_gated", token: user)
            #expect(signedIn.header("X-Checked") == "authenticated HEAD /rest_gated authenticated", "\(signedIn)")

            let call = try await rest.request(.post, "rpc/rest_gated_echo", body: #"{"word":"hi"}"#)
            #expect(call.body == #""hi""#)
            #expect(call.header("X-Checked") == "anon POST /rpc/rest_gated_echo anon")
        }
    }

    @Test func itsRefusalIsTheRequestsAndChangesNothing() async throws {
        try await RESTHarness.with(configuration: Self.configured("public.rest_check_request")) { rest in
            try await rest.addFixtures(Self.fixtures)
            let read = try await rest.request(.get, "rest_gated", headers: ["X-Blocked": "1"])
            #expect(read.status == 400, "\(read)")
            #expect(read.body == #"{"code":"P0001","details":null,"hint":"ask an admin","message":"blocked by the pre-request"}"#)

            let write = try await rest.request(.post, "rest_gated", headers: ["X-Blocked": "1"], body: #"{"id":2,"note":"two"}"#)
            #expect(write.isError("P0001", status: 400), "\(write)")
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_gated") == 1)

            // The OpenAPI description asks it too.
            #expect(try await rest.request(.get, "", headers: ["X-Blocked": "1"]).isError("P0001", status: 400))
            #expect(try await rest.request(.get, "").status == 200)

            let written = try await rest.request(.post, "rest_gated", body: #"{"id":2,"note":"two"}"#)
            #expect(written.status == 201, "\(written)")
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_gated") == 2)
        }
    }

    @Test func anUnknownFunctionFailsEveryRequestRatherThanBeingSkipped() async throws {
        try await RESTHarness.with(configuration: Self.configured("public.rest_no_such_check")) { rest in
            try await rest.addFixtures(Self.fixtures)
            let read = try await rest.request(.get, "rest_gated")
            #expect(read.isError("42883", status: 404), "\(read)")
            #expect(read.body.contains("rest_no_such_check"))
        }
    }

    @Test func theLoginRolesSettingWinsAndIsReadAgainOnReloadConfig() async throws {
        try await RESTHarness.with(configuration: Self.configured("public.rest_check_request")) { rest in
            try await rest.addFixtures(Self.fixtures)
            let database = try await rest.adminQuery("SELECT current_database()")[0].decode(String.self, at: 0)
            let quoted = "\"" + database.replacingOccurrences(of: "\"", with: "\"\"") + "\""

            try await setAndReload(rest, "ALTER ROLE CURRENT_USER IN DATABASE \(quoted) SET pgrst.db_pre_request = 'public.rest_other_check'")
            #expect(try await rest.request(.get, "rest_gated").header("X-Checked") == "other")

            // Empty: no pre-request at all, the configured one included.
            try await setAndReload(rest, "ALTER ROLE CURRENT_USER IN DATABASE \(quoted) SET pgrst.db_pre_request = ''")
            let unchecked = try await rest.request(.get, "rest_gated", headers: ["X-Blocked": "1"])
            #expect(unchecked.status == 200, "\(unchecked)")
            #expect(unchecked.header("X-Checked") == nil)

            // Reset: the configured one again.
            try await setAndReload(rest, "ALTER ROLE CURRENT_USER IN DATABASE \(quoted) RESET pgrst.db_pre_request")
            #expect(try await rest.request(.get, "rest_gated", headers: ["X-Blocked": "1"]).status == 400)
        }
    }

    @Test func appSettingsAreReadableInEveryRequestsTransaction() async throws {
        let configuration = try RESTConfiguration(
            reading: EnvironmentReader([
                "COMPASS_REST_APP_SETTINGS_JWT_EXP": "3600", "COMPASS_REST_APP_SETTINGS_Site_Name": " Compass ",
                "COMPASS_REST_APP_SETTINGS_": "nameless", "COMPASS_REST_APP_SETTINGS_EMPTY": "",
            ]))
        #expect(configuration.appSettings.map(\.name) == ["app.settings.jwt_exp", "app.settings.site_name"])
        try await RESTHarness.with(configuration: configuration) { rest in
            try await rest.addFixtures(
                """
                CREATE FUNCTION public.rest_app_setting(name text) RETURNS text LANGUAGE sql STABLE
                  AS $$ SELECT current_setting('app.settings.' || name, true) $$;
                GRANT EXECUTE ON FUNCTION public.rest_app_setting(text) TO anon;
                """)
            #expect(try await rest.request(.get, "rpc/rest_app_setting?name=jwt_exp").body == #""3600""#)
            #expect(try await rest.request(.get, "rpc/rest_app_setting?name=site_name").body == #""Compass""#)
            #expect(try await rest.request(.get, "rpc/rest_app_setting?name=empty").body == "null")
        }
        // A name Postgres could not hold is refused at start, naming the variable.
        #expect(throws: ConfigurationError.self) {
            try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_APP_SETTINGS_A-B": "x"]))
        }
        #expect(throws: ConfigurationError.self) {
            try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_APP_SETTINGS_1ABC": "x"]))
        }
    }

    /// Runs `statement`, then `NOTIFY pgrst, 'reload config'`, and waits for the store to reload.
    private func setAndReload(_ rest: RESTHarness, _ statement: String) async throws {
        let generation = await rest.api.store.generation
        _ = try await rest.adminQuery(PostgresQuery(unsafeSQL: statement))
        _ = try await rest.adminQuery("NOTIFY pgrst, 'reload config'")
        let deadline = ContinuousClock.now + .seconds(10)
        while await rest.api.store.generation == generation, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await rest.api.store.generation > generation, "reloaded after \(statement)")
    }
}
