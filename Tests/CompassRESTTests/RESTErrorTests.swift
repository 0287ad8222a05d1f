import Foundation
import Postgres
import Testing

/// Errors reach clients in PostgREST's shape and with its statuses, and change nothing.
@Suite("REST errors and status mapping")
struct RESTErrorTests {
    @Test func unknownNamesAndMalformedInput() async throws {
        try await RESTHarness.with { rest in
            let token = try await rest.token(Demo.sofia)
            let table = try await rest.request(.get, "interaction", token: token)
            #expect(table.isError("PGRST205", status: 404))
            #expect(table.object["hint"] as? String == "Perhaps you meant the table 'public.interactions'")
            let column = try await rest.request(.get, "interactions?select=id,nope", token: token)
            #expect(column.isError("42703", status: 400))
            #expect(column.object["message"] as? String == "column interactions.nope does not exist")
            let ambiguous = try await rest.request(.get, "activities?select=*,profiles(username)", token: token)
            #expect(ambiguous.isError("PGRST201", status: 300))
            #expect((ambiguous.object["details"] as? [Any])?.count == 2)
            let none = try await rest.request(.get, "interactions?select=*,posts(*)", token: token)
            #expect(none.isError("PGRST200", status: 400))
            let parse = try await rest.request(.get, "interactions?logged_by=equals.x", token: token)
            #expect(parse.isError("PGRST100", status: 400))
            let value = try await rest.request(.get, "interactions?id=eq.not-a-uuid", token: token)
            #expect(value.isError("22P02", status: 400))
            let notEmbedded = try await rest.request(.get, "interactions?actor.username=eq.x", token: token)
            #expect(notEmbedded.isError("PGRST108", status: 400))
        }
    }

    @Test func keysAndTokens() async throws {
        try await RESTHarness.with { rest in
            let missing = try await rest.client.execute(uri: "/rest/v1/interactions", method: .get) { $0 }
            #expect(missing.status.code == 401)
            let expired = try await rest.request(.get, "interactions", token: try await rest.token(Demo.sofia, lifetime: -60))
            #expect(expired.isError("PGRST303", status: 401))
            #expect(expired.header("WWW-Authenticate") == #"Bearer error="invalid_token", error_description="JWT expired""#)
            let forged = try await rest.request(.get, "interactions", token: try await rest.token(Demo.sofia) + "x")
            #expect(forged.isError("PGRST301", status: 401))
            let anon = try await rest.request(.get, "interactions")
            #expect(anon.status == 200)
            #expect(anon.body == "[]")
            #expect(anon.header("Content-Range") == "*/*")
        }
    }

    @Test func rlsRefusalIs403ForAUserAnd401ForAnonAndWritesNothing() async throws {
        try await RESTHarness.with { rest in
            let before = try await rest.count("SELECT count(*)::int FROM public.activities")
            let row = #"{"user_id":"\#(Demo.sofia)","actor_id":"\#(Demo.jordan)","activity_type":"like"}"#
            let user = try await rest.request(
                .post, "activities", token: try await rest.token(Demo.sofia), headers: ["Prefer": "return=representation"], body: row)
            #expect(user.isError("42501", status: 403))
            #expect(user.object["message"] as? String == #"new row violates row-level security policy for table "activities""#)
            let anon = try await rest.request(.post, "activities", body: row)
            #expect(anon.isError("42501", status: 401))
            #expect(try await rest.count("SELECT count(*)::int FROM public.activities") == before)
        }
    }

    @Test func integrityViolations() async throws {
        try await RESTHarness.with { rest in
            let sofia = try await rest.token(Demo.sofia)
            let duplicate = try await rest.request(
                .post, "profiles", token: sofia, body: #"{"user_id":"\#(Demo.sofia)","username":"again","role":"athlete"}"#)
            #expect(duplicate.isError("23505", status: 409))
            let dangling = try await rest.request(
                .post, "follows", token: sofia, body: #"{"follower":"\#(Demo.sofia)","followee":"\#(UUID())"}"#)
            #expect(dangling.isError("23503", status: 409))
            let maria = try await rest.token(Demo.maria)
            let check = try await rest.request(
                .post, "parent_activities", token: maria,
                body: #"{"family_unit_id":"\#(Demo.riveraFamily)","triggering_user_id":"\#(Demo.maria)","activity_type":"no_such_type","target_entity":"child","target_entity_id":"\#(Demo.sofia)"}"#)
            #expect(check.isError("23514", status: 400))
            let notNull = try await rest.request(
                .post, "parent_activities", token: maria,
                body: #"{"family_unit_id":"\#(Demo.riveraFamily)","triggering_user_id":"\#(Demo.maria)","activity_type":"child_added","target_entity":"child"}"#)
            #expect(notNull.isError("23502", status: 400))
            let unknownColumn = try await rest.request(.post, "follows", token: sofia, body: #"{"follower":"x","nope":1}"#)
            #expect(unknownColumn.isError("PGRST204", status: 400))
            let badJSON = try await rest.request(.post, "follows", token: sofia, body: #"{"follower":"#)
            #expect(badJSON.isError("PGRST102", status: 400))
            let mismatched = try await rest.request(.post, "follows", token: sofia, body: #"[{"follower":"a"},{"followee":"b"}]"#)
            #expect(mismatched.isError("PGRST102", status: 400))
        }
    }

    @Test func aRefusedSingleObjectRollsTheWriteBack() async throws {
        try await RESTHarness.with { rest in
            let unreadBefore = try await rest.count(unreadQuery(Demo.sofia))
            #expect(unreadBefore > 1)
            let update = try await rest.request(
                .patch, "activities?user_id=eq.\(Demo.sofia.uuidString)", token: try await rest.token(Demo.sofia),
                headers: ["Prefer": "return=representation", "Accept": "application/vnd.pgrst.object+json"], body: #"{"is_read":true}"#)
            #expect(update.isError("PGRST116", status: 406))
            #expect((update.object["details"] as? String)?.hasPrefix("The result contains ") == true)
            #expect(try await rest.count(unreadQuery(Demo.sofia)) == unreadBefore)
        }
    }

    private func unreadQuery(_ user: UUID) -> PostgresQuery {
        "SELECT count(*)::int FROM public.activities WHERE user_id = \(user) AND NOT is_read"
    }
}
