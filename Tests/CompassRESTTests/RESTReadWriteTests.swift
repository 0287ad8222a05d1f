import Foundation
import Postgres
import Testing

/// Reads and writes through the routes, on the demo data, under each user's RLS.
@Suite("REST reads and writes")
struct RESTReadWriteTests {
    /// A single object is one row, whatever the function returns a set of (scalars included).
    @Test func aSetOfScalarsIsASingleObjectOnlyWhenItHoldsOneRow() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                """
                CREATE FUNCTION public.rest_count_to(n int) RETURNS SETOF int LANGUAGE sql STABLE AS 'SELECT generate_series(1, n)';
                GRANT EXECUTE ON FUNCTION public.rest_count_to(int) TO anon;
                """)
            let object = ["Accept": "application/vnd.pgrst.object+json"]
            let three = try await rest.request(.get, "rpc/rest_count_to?n=3", headers: object)
            #expect(three.isError("PGRST116", status: 406), "\(three)")
            #expect(three.object["details"] as? String == "The result contains 3 rows")
            let none = try await rest.request(.get, "rpc/rest_count_to?n=0", headers: object)
            #expect(none.object["details"] as? String == "The result contains 0 rows")
            let one = try await rest.request(.get, "rpc/rest_count_to?n=1", headers: object)
            #expect(one.status == 200 && one.body == "1", "\(one)")
        }
    }

    @Test func upperCaseUUIDsCompareAsUUIDs() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let expected = try await rest.count("SELECT count(*)::int FROM public.interactions WHERE logged_by = \(Demo.sofia)")
            let upper = try await rest.request(.get, "interactions?select=id&logged_by=eq.\(Demo.sofia.uuidString)", token: token)
            #expect(upper.status == 200)
            #expect(upper.array.count == expected)
            let list = try await rest.request(
                .get, "interactions?select=id&logged_by=in.(\(Demo.sofia.uuidString),\(Demo.marcus.uuidString))", token: token)
            #expect(list.array.count == expected)
            let marcus = try await rest.request(.get, "interactions?select=id&logged_by=eq.\(Demo.sofia.uuidString)",
                token: try await rest.token(Demo.marcus))
            #expect(marcus.body == "[]")
        }
    }

    @Test func countsRangesAndSingleObjects() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let total = try await rest.count("SELECT count(*)::int FROM public.interactions WHERE logged_by = \(Demo.sofia)")
            let page = try await rest.request(
                .get, "interactions?select=id,occurred_at&order=occurred_at.desc.nullslast,id&offset=1&limit=2", token: token,
                headers: ["Prefer": "count=exact"])
            #expect(page.status == 206)
            #expect(page.header("Content-Range") == "1-2/\(total)")
            #expect(page.array.count == 2)
            let ranged = try await rest.request(.get, "interactions?select=id", token: token, headers: ["Range": "0-4", "Range-Unit": "items"])
            #expect(ranged.header("Content-Range") == "0-4/*")
            let past = try await rest.request(.get, "interactions?offset=1000", token: token, headers: ["Prefer": "count=exact"])
            #expect(past.isError("PGRST103", status: 416))
            let none = try await rest.request(
                .get, "interactions?id=eq.\(UUID())", token: token, headers: ["Accept": "application/vnd.pgrst.object+json"])
            #expect(none.isError("PGRST116", status: 406))
            #expect(none.object["details"] as? String == "The result contains 0 rows")
            let many = try await rest.request(.get, "interactions", token: token, headers: ["Accept": "application/vnd.pgrst.object+json"])
            #expect(many.object["details"] as? String == "The result contains \(total) rows")
            let one = try await rest.request(
                .get, "profiles?select=username,full_name&user_id=eq.\(Demo.sofia)", token: token,
                headers: ["Accept": "application/vnd.pgrst.object+json"])
            #expect(one.status == 200)
            #expect(one.object["full_name"] as? String == "Sofia Rivera")
            #expect(one.header("Content-Type") == "application/vnd.pgrst.object+json; charset=utf-8")
            let head = try await rest.request(.head, "interactions", token: token, headers: ["Prefer": "count=exact"])
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Range") == "0-\(total - 1)/\(total)")
        }
    }

    @Test func embedsFiltersAndOrderOnEmbeds() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let notifications = try await rest.request(
                .get, "activities?select=id,activity_type,created_at,actor:profiles!actor_id(username,full_name,avatar_url)"
                    + "&user_id=eq.\(Demo.sofia)&order=created_at.desc", token: token)
            #expect(notifications.status == 200)
            #expect(!notifications.array.isEmpty)
            for row in notifications.array {
                let actor = row["actor"] as? [String: Any]
                #expect(actor?["username"] is String)
                #expect((row["created_at"] as? String)?.hasSuffix("+00:00") == true)
            }
            let schools = try await rest.request(
                .get, "schools?select=name,coaches(first_name)&coaches.order=first_name.desc&coaches.limit=1&family_unit_id=eq.\(Demo.riveraFamily)",
                token: try await rest.token(Demo.maria))
            #expect(schools.status == 200)
            #expect(schools.array.allSatisfy { ($0["coaches"] as? [Any])?.count ?? -1 <= 1 })
            let inner = try await rest.request(
                .get, "interactions?select=id,school:schools!inner(name)&school.name=eq.Nowhere", token: token)
            #expect(inner.body == "[]")
            #expect(inner.header("Warning") == nil)
            // The relation's name stands for its alias, with PostgREST's deprecation warning.
            let legacy = try await rest.request(
                .get, "interactions?select=id,school:schools!inner(name)&schools.name=eq.Nowhere", token: token)
            #expect(legacy.body == "[]")
            #expect(legacy.header("Warning")?.contains("Update `schools` to `school` in query string filters, orders or limits.") == true)
            let legacyLimit = try await rest.request(
                .get, "schools?select=name,first:coaches(first_name)&coaches.limit=1&family_unit_id=eq.\(Demo.riveraFamily)",
                token: try await rest.token(Demo.maria))
            #expect(legacyLimit.array.allSatisfy { ($0["first"] as? [Any])?.count ?? -1 <= 1 })
            let ordered = try await rest.request(
                .get, "interactions?select=id,school:schools(name)&order=school(name).asc&school_id=not.is.null", token: token)
            let names = ordered.array.compactMap { ($0["school"] as? [String: Any])?["name"] as? String }
            #expect(names == names.sorted())
            let logic = try await rest.request(
                .get, "interactions?select=id&or=(type.eq.email,and(type.eq.phone_call,direction.eq.inbound))", token: token)
            let expected = try await rest.count(
                "SELECT count(*)::int FROM public.interactions WHERE logged_by = \(Demo.sofia) AND (type = 'email' OR (type = 'phone_call' AND direction = 'inbound'))")
            #expect(logic.array.count == expected)
        }
    }

    @Test func insertsUpsertsUpdatesAndDeletes() async throws {
        try await RESTHarness.with { rest in
            let maria = try await rest.token(Demo.maria)
            let row = #"{"family_unit_id":"\#(Demo.riveraFamily.uuidString)","triggering_user_id":"\#(Demo.maria.uuidString)","activity_type":"points_adjusted","target_entity":"child","target_entity_id":"\#(Demo.sofia.uuidString)","changes":{"after":{"name":"Duke"}},"created_at":"2026-01-02T03:04:05.678"}"#
            let created = try await rest.request(.post, "parent_activities", token: maria, headers: ["Prefer": "return=representation"], body: row)
            #expect(created.status == 201)
            let id = try #require(created.array.first?["id"] as? String)
            #expect(created.array.first?["created_at"] as? String == "2026-01-02T03:04:05.678+00:00")
            let headersOnly = try await rest.request(.post, "parent_activities", token: maria, headers: ["Prefer": "return=headers-only"], body: row)
            #expect(headersOnly.status == 201)
            #expect(headersOnly.body.isEmpty)
            #expect(headersOnly.header("Location")?.hasPrefix("/parent_activities?id=eq.") == true)
            let minimal = try await rest.request(.post, "parent_activities?columns=family_unit_id,triggering_user_id,activity_type,target_entity,target_entity_id", token: maria, body: "[\(row),\(row)]")
            #expect(minimal.status == 201)
            #expect(minimal.body.isEmpty)
            #expect(try await rest.count("SELECT count(*)::int FROM public.parent_activities WHERE changes = '{}'::jsonb AND triggering_user_id = \(Demo.maria) AND activity_type = 'points_adjusted'") == 2)

            let sparse = #"[{"family_unit_id":"\#(Demo.riveraFamily)","triggering_user_id":"\#(Demo.maria)","activity_type":"child_added","target_entity":"child","target_entity_id":"\#(Demo.sofia)"}]"#
            let columns = "parent_activities?columns=family_unit_id,triggering_user_id,activity_type,target_entity,target_entity_id,changes"
            let nulls = try await rest.request(.post, columns, token: maria, body: sparse)
            #expect(nulls.isError("23502", status: 400))
            let defaults = try await rest.request(
                .post, columns, token: maria, headers: ["Prefer": "return=representation,missing=default"], body: sparse)
            #expect(defaults.status == 201)
            #expect((defaults.array.first?["changes"] as? [String: Any])?.isEmpty == true)
            #expect(defaults.header("Preference-Applied")?.contains("missing=default") == true)

            let sofia = try await rest.token(Demo.sofia)
            let stanford = "5C000000-0000-4000-8000-000000000001"
            let upsert = try await rest.request(
                .post, "schools?on_conflict=id", token: sofia, headers: ["Prefer": "return=representation,resolution=merge-duplicates"],
                body: #"[{"id":"\#(stanford)","family_unit_id":"\#(Demo.riveraFamily)","user_id":"\#(Demo.sofia)","name":"Stanford","status":"committed"}]"#)
            // Stanford was there: the upsert only updated it, which PostgREST answers 200.
            #expect(upsert.status == 200)
            #expect(upsert.array.first?["name"] as? String == "Stanford")
            #expect(upsert.header("Preference-Applied")?.contains("resolution=merge-duplicates") == true)
            #expect(try await rest.count("SELECT count(*)::int FROM public.schools WHERE name = 'Stanford' AND status = 'committed'") == 1)
            let ignored = try await rest.request(
                .post, "schools", token: sofia, headers: ["Prefer": "return=representation,resolution=ignore-duplicates"],
                body: #"{"id":"\#(stanford)","family_unit_id":"\#(Demo.riveraFamily)","user_id":"\#(Demo.sofia)","name":"Ignored"}"#)
            #expect(ignored.status == 201)
            #expect(ignored.body == "[]")

            let read = try await rest.request(.patch, "activities?user_id=eq.\(Demo.sofia)&is_read=is.false", token: sofia, body: #"{"is_read":true}"#)
            #expect(read.status == 204)
            #expect(try await rest.count("SELECT count(*)::int FROM public.activities WHERE user_id = \(Demo.sofia) AND NOT is_read") == 0)
            let gone = try await rest.request(.delete, "parent_activities?id=eq.\(id)", token: maria, headers: ["Prefer": "return=representation"])
            #expect(gone.status == 403 || gone.body == "[]")
            let cleared = try await rest.request(
                .delete, "activities?user_id=eq.\(Demo.sofia)", token: sofia, headers: ["Prefer": "return=representation,count=exact"])
            #expect(cleared.status == 200)
            #expect(cleared.header("Content-Range") == "*/\(cleared.array.count)")
            #expect(try await rest.count("SELECT count(*)::int FROM public.activities WHERE user_id = \(Demo.sofia)") == 0)
            #expect(try await rest.count("SELECT count(*)::int FROM public.activities") > 0)
        }
    }

    @Test func rpcAndSchemaReloadAndRequestSettings() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let missing = try await rest.request(.post, "rpc/whoami", token: token, body: "{}")
            #expect(missing.isError("PGRST202", status: 404))
            let generation = await rest.api.store.generation
            _ = try await rest.adminQuery("""
                CREATE FUNCTION public.whoami(greeting text DEFAULT 'hi') RETURNS json LANGUAGE sql STABLE AS $$
                  SELECT json_build_object('greeting', greeting, 'role', current_user, 'sub', auth.uid(),
                    'method', current_setting('request.method'), 'path', current_setting('request.path'),
                    'agent', current_setting('request.headers')::json->>'user-agent',
                    'host', current_setting('request.headers')::json->>'host')
                $$;
                """)
            _ = try await rest.adminQuery("GRANT EXECUTE ON FUNCTION public.whoami(text) TO anon, authenticated")
            _ = try await rest.adminQuery("NOTIFY pgrst, 'reload schema'")
            let deadline = ContinuousClock.now + .seconds(10)
            while await rest.api.store.generation == generation, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            let posted = try await rest.request(.post, "rpc/whoami", token: token, headers: ["User-Agent": "tests"], body: #"{"greeting":"hello"}"#)
            #expect(posted.status == 200)
            #expect(posted.object["greeting"] as? String == "hello")
            #expect(posted.object["role"] as? String == "authenticated")
            #expect(posted.object["sub"] as? String == Demo.sofia.uuidString.lowercased())
            #expect(posted.object["method"] as? String == "POST")
            #expect(posted.object["path"] as? String == "/rpc/whoami")
            #expect(posted.object["agent"] as? String == "tests")
            #expect(posted.object["host"] as? String == "localhost", "\(posted.object)")  // the test client's Host
            let got = try await rest.request(.get, "rpc/whoami", token: token)
            #expect(got.object["greeting"] as? String == "hi")
            #expect(got.object["method"] as? String == "GET")
            let wrong = try await rest.request(.post, "rpc/whoami", token: token, body: #"{"nope":1}"#)
            #expect(wrong.isError("PGRST202", status: 404))
        }
    }

    /// As in PostgREST, POST runs a stable or immutable function read-only: one that writes is
    /// refused (405 25006) and writes nothing; a volatile one writes.
    @Test func postRunsOnlyVolatileFunctionsReadWrite() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(
                """
                CREATE TABLE public.rest_call_log (note text);
                GRANT INSERT ON public.rest_call_log TO anon;
                CREATE FUNCTION public.rest_volatile_writer(note text DEFAULT 'volatile') RETURNS int LANGUAGE sql
                  AS $$ INSERT INTO public.rest_call_log VALUES (note) RETURNING 1 $$;
                -- Postgres lets a stable function write only through a volatile one.
                CREATE FUNCTION public.rest_stable_writer() RETURNS int LANGUAGE sql STABLE
                  AS $$ SELECT public.rest_volatile_writer('stable') $$;
                GRANT EXECUTE ON FUNCTION public.rest_stable_writer(), public.rest_volatile_writer(text) TO anon;
                """)
            let stable = try await rest.request(.post, "rpc/rest_stable_writer", body: "{}")
            #expect(stable.isError("25006", status: 405), "\(stable)")
            let volatile = try await rest.request(.post, "rpc/rest_volatile_writer", body: "{}")
            #expect(volatile.status == 200, "\(volatile)")
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_call_log WHERE note = 'stable'") == 0)
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_call_log WHERE note = 'volatile'") == 1)
        }
    }

    @Test func aColumnTypeChangeAfterASchemaReloadDoesNotRunPlansPreparedForTheOldType() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            _ = try await rest.adminQuery("CREATE TABLE public.type_probe (id int PRIMARY KEY, age int)")
            _ = try await rest.adminQuery("INSERT INTO public.type_probe VALUES (1, 5)")
            _ = try await rest.adminQuery("GRANT SELECT ON public.type_probe TO authenticated")
            _ = try await rest.adminQuery("ALTER TABLE public.type_probe DISABLE ROW LEVEL SECURITY")
            func reload() async throws {
                let generation = await rest.api.store.generation
                _ = try await rest.adminQuery("NOTIFY pgrst, 'reload schema'")
                let deadline = ContinuousClock.now + .seconds(10)
                while await rest.api.store.generation == generation, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            try await reload()
            // Several times, so the pool's connection has the shape prepared with `$1` as int.
            for _ in 0..<3 {
                let found = try await rest.request(.get, "type_probe?select=id&age=eq.5", token: token)
                #expect(found.status == 200 && found.array.count == 1)
            }
            _ = try await rest.adminQuery("ALTER TABLE public.type_probe ALTER COLUMN age TYPE text")
            _ = try await rest.adminQuery("UPDATE public.type_probe SET age = 'five'")
            try await reload()
            let text = try await rest.request(.get, "type_probe?select=id&age=eq.five", token: token)
            #expect(text.status == 200)
            #expect(text.array.count == 1)
        }
    }

    @Test func transactionControlIsPreparedLikeTheStatementsItWraps() async throws {
        try await RESTHarness.with { rest in
            let maria = try await rest.token(Demo.maria)
            let read = try await rest.request(.get, "parent_activities?select=id", token: maria)
            #expect(read.status == 200)
            let row = #"{"family_unit_id":"\#(Demo.riveraFamily.uuidString)","triggering_user_id":"\#(Demo.maria.uuidString)","activity_type":"points_adjusted","target_entity":"child","target_entity_id":"\#(Demo.sofia.uuidString)"}"#
            let write = try await rest.request(.post, "parent_activities", token: maria, body: row)
            #expect(write.status == 201)
            // Requests one after another share one pooled connection: Postgres parsed each of these
            // once, and runs them by name from then on.
            let prepared = try await rest.pool.withConnection {
                try await $0.query("SELECT statement FROM pg_prepared_statements WHERE name LIKE 'compass_statement_%'")
            }
            let statements = Set(try prepared.map { try $0.decode(String.self, at: 0) })
            #expect(statements.isSuperset(of: ["BEGIN READ ONLY", "BEGIN", "COMMIT"]))
        }
    }

    /// A read's transaction is read-only, and its settings end with it: nothing of one request
    /// is left on the pooled connection for the next.
    @Test func aReadsTransactionIsReadOnlyAndLeavesNothingBehind() async throws {
        try await RESTHarness.with(poolSize: 1) { rest in
            try await rest.addFixtures(
                """
                CREATE TABLE public.rest_ro_log (n int);
                CREATE FUNCTION public.rest_ro_write() RETURNS int LANGUAGE sql VOLATILE AS 'INSERT INTO public.rest_ro_log VALUES (1) RETURNING n';
                CREATE FUNCTION public.rest_ro_state() RETURNS json LANGUAGE sql STABLE AS $$
                  SELECT json_build_object('read_only', current_setting('transaction_read_only'), 'user', current_user) $$;
                GRANT INSERT ON public.rest_ro_log TO anon;
                GRANT EXECUTE ON FUNCTION public.rest_ro_write(), public.rest_ro_state() TO anon;
                """)
            let write = try await rest.request(.get, "rpc/rest_ro_write")
            #expect(write.isError("25006", status: 405), "\(write)")
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_ro_log") == 0)
            let state = try await rest.request(.get, "rpc/rest_ro_state")
            #expect(state.object["read_only"] as? String == "on")
            #expect(state.object["user"] as? String == "anon")
            let session = try await rest.pool.withConnection {
                try await $0.query("SELECT current_user::text, current_setting('transaction_read_only'), current_setting('request.method', true)")
            }
            #expect(try session[0].decode(String.self, at: 1) == "off", "the pooled connection is read-write again")
            #expect(try session[0].decode(String?.self, at: 2) ?? "" == "", "request settings ended with the read")
            #expect(try session[0].decode(String.self, at: 0) != "anon")
        }
    }

    @Test func statementsDroppedBehindTheCachesBackAreRunAgainInsideTheRequestsTransaction() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let path = "interactions?select=id&logged_by=eq.\(Demo.sofia)"
            let first = try await rest.request(.get, path, token: token)
            #expect(first.status == 200 && !first.array.isEmpty)
            // Requests one after another share one pooled connection: drop its statements unseen.
            _ = try await rest.pool.withConnection { try await $0.executeScript(unsafeSQL: "DEALLOCATE ALL") }
            let again = try await rest.request(.get, path, token: token)
            #expect(again.status == 200)
            #expect(again.array.count == first.array.count)
        }
    }
}
