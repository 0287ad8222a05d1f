import CompassAuth
import CompassTokens
import Foundation
import Testing

@Suite("/auth/v1 sessions", .serialized)
struct SessionTests {
    static let sofia = "sofia.rivera@example.com"

    @Test("sign-up returns a session whose access token carries GoTrue's claims; the user signs in again")
    func signUpClaims() async throws {
        try await AuthHarness.with { auth in
            let reply = try await auth.send(
                .post, "/signup", json: #"{"email":"New.Athlete@Example.com","password":"secret-123","data":{"sport":"soccer"}}"#)
            #expect(reply.status == .ok)
            #expect(reply["token_type"] == "bearer")
            #expect(reply.object["expires_in"] as? Int == 3600)
            let user = try #require(reply.object["user"] as? [String: Any])
            #expect(user["email"] as? String == "new.athlete@example.com")
            #expect((user["user_metadata"] as? [String: Any])?["sport"] as? String == "soccer")
            let token = try #require(reply["access_token"])
            let claims = try await auth.verifier.verify(token)
            #expect(claims.role == .authenticated)
            #expect(claims.subject == user["id"] as? String)
            let payload = try #require(
                try JSONSerialization.jsonObject(with: Data(claims.claimsJSON.utf8)) as? [String: Any])
            #expect(payload["aud"] as? String == "authenticated")
            #expect(payload["aal"] as? String == "aal1")
            #expect(payload["email"] as? String == "new.athlete@example.com")
            #expect(payload["session_id"] is String)
            #expect((payload["exp"] as? Int).map { $0 - (payload["iat"] as? Int ?? 0) } == 3600)
            #expect(reply.object["expires_at"] as? Int == payload["exp"] as? Int)
            #expect((payload["amr"] as? [[String: Any]])?.first?["method"] as? String == "password")
            let hash = try await auth.query("SELECT encrypted_password FROM auth.users WHERE email = 'new.athlete@example.com'")
            #expect(try hash[0].decode(String.self, at: 0).hasPrefix("$2a$10$"))

            let again = try await auth.send(.post, "/signup", json: #"{"email":"new.athlete@example.com","password":"secret-123"}"#)
            #expect(again.status == .unprocessableContent)
            #expect(again.code == "user_already_exists")
            #expect(try await auth.signIn("new.athlete@example.com", "secret-123").status == .ok)
        }
    }

    @Test("weak password, invalid email and bad JSON are refused in GoTrue's shapes and create nothing")
    func badSignUps() async throws {
        try await AuthHarness.with { auth in
            let weak = try await auth.send(.post, "/signup", json: #"{"email":"weak@example.com","password":"12345"}"#)
            #expect(weak.status == .unprocessableContent)
            #expect(weak.code == "weak_password")
            #expect((weak.object["weak_password"] as? [String: Any])?["reasons"] as? [String] == ["length"])
            #expect(weak.headers[.init("X-Supabase-Api-Version")!] == "2024-01-01")
            // The length is in UTF-8 bytes, as GoTrue counts it: three é are 6.
            let accented = try await auth.send(.post, "/signup", json: #"{"email":"accented@example.com","password":"ééé"}"#)
            #expect(accented.status == .ok, "\(accented.status)")
            let legacy = try await auth.send(
                .post, "/signup", json: #"{"email":"not-an-email","password":"123456"}"#, versioned: false)
            #expect(legacy.status == .badRequest)
            #expect(legacy.object["code"] as? Int == 400)
            #expect(legacy["error_code"] == "validation_failed")
            #expect(legacy["msg"] != nil)
            let bad = try await auth.send(.post, "/signup", json: "{")
            #expect(bad.code == "bad_json")
            // A body nested past 64 levels is refused before decoding (it cost CPU growing
            // with the square of the depth); 64 levels are kept as sent.
            func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth) }
            let deep = try await auth.send(
                .post, "/signup", json: #"{"email":"deep@example.com","password":"secret-123","data":{"d":"# + nested(63) + "}}")
            #expect(deep.status == .badRequest)
            #expect(deep.code == "bad_json")
            #expect(deep["message"]?.contains("64 levels") == true)
            // UTF-16 is refused (GoTrue reads UTF-8 only): its bytes would hide the nesting.
            let wide = #"{"email":"wide@example.com","password":"secret-123"}"#.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let utf16 = try await auth.send(.post, "/signup", json: String(decoding: wide, as: UTF8.self))
            #expect(utf16.code == "bad_json")
            // Read as Go reads JSON: a key given twice (Foundation would keep the first, Go the last)
            // and a trailing comma are refused rather than read one way here and another elsewhere.
            let twice = try await auth.send(
                .post, "/token?grant_type=password",
                json: #"{"email":"\#(SessionTests.sofia)","email":"x@y.z","password":"\#(AuthHarness.demoPassword)"}"#)
            #expect(twice.status == .badRequest && twice.code == "bad_json", "\(twice.status)")
            let cased = try await auth.send(
                .post, "/token?grant_type=password",
                json: #"{"email":"\#(SessionTests.sofia)","EMAIL":"x@y.z","password":"\#(AuthHarness.demoPassword)"}"#)
            #expect(cased.code == "bad_json", "the same field in another case is the same field to Go")
            // A field in another case alone is that field, as Go's decoder reads it.
            let capital = try await auth.send(
                .post, "/token?grant_type=password", json: #"{"Email":"\#(SessionTests.sofia)","Password":"\#(AuthHarness.demoPassword)"}"#)
            #expect(capital.status == .ok, "\(capital.text)")
            let trailing = try await auth.send(
                .post, "/token?grant_type=password", json: #"{"email":"\#(SessionTests.sofia)","password":"\#(AuthHarness.demoPassword)",}"#)
            #expect(trailing.code == "bad_json")
            let deepest = try await auth.send(
                .post, "/signup", json: #"{"email":"deepest@example.com","password":"secret-123","data":{"d":"# + nested(62) + "}}")
            #expect(deepest.status == .ok)
            let stored = try await auth.query(
                "SELECT jsonb_array_length(raw_user_meta_data->'d')::int FROM auth.users WHERE email = 'deepest@example.com'")
            #expect(try stored[0].decode(Int.self, at: 0) == 1)
            let count = try await auth.query("SELECT count(*)::int FROM auth.users WHERE email IN ('weak@example.com', 'not-an-email', 'deep@example.com')")
            #expect(try count[0].decode(Int.self, at: 0) == 0)
        }
    }

    @Test("wrong password and unknown email get the same invalid_credentials; no apikey gets the gateway's 401")
    func invalidCredentials() async throws {
        try await AuthHarness.with { auth in
            let wrong = try await auth.signIn(SessionTests.sofia, "not-her-password")
            let unknown = try await auth.signIn("nobody@example.com", "whatever-123")
            #expect(wrong.status == .badRequest)
            #expect(wrong.code == "invalid_credentials")
            #expect(wrong.text == unknown.text)
            #expect(!wrong.text.contains("not-her-password"))
            let ok = try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)
            #expect(ok.status == .ok)
            let noKey = try await auth.send(.get, "/settings", key: "")
            #expect(noKey.status == .unauthorized)
            let grant = try await auth.send(.post, "/token?grant_type=magic", json: "{}")
            #expect(grant.code == "unsupported_grant_type")
            // Requests that name no account, or two, are told so in GoTrue's words, at sign-in and for a code.
            let cases: [(String, String, String)] = [
                ("/token?grant_type=password", #"{"password":"x"}"#, "missing email or phone"),
                ("/token?grant_type=password", #"{"email":"","password":"x"}"#, "missing email or phone"),
                ("/token?grant_type=password", #"{"email":"a@b.co","phone":"+15555550100","password":"x"}"#,
                 "Only an email address or phone number should be provided on login."),
                ("/otp", "{}", "One of email or phone must be set"),
                ("/otp", #"{"email":"a@b.co","phone":"+15555550100"}"#, "Only an email address or phone number should be provided"),
            ]
            for (path, body, message) in cases {
                let reply = try await auth.send(.post, path, json: body)
                #expect(reply.status == .badRequest && reply.code == "validation_failed", "\(path) \(body)")
                #expect(reply["msg"] == message || reply["message"] == message, "\(path) \(body): \(reply.text)")
            }
            // The address as sent: spaces around it are not another spelling of it (only case is),
            // at sign-in as at sign-up and for a code (GoTrue's invalid format).
            #expect(try await auth.signIn(" " + SessionTests.sofia, AuthHarness.demoPassword).code == "invalid_credentials")
            let spaced = try await auth.send(.post, "/signup", json: #"{"email":" spaced@example.com ","password":"secret-123"}"#)
            #expect(spaced.status == .badRequest && spaced.code == "validation_failed", "\(spaced.text)")
            #expect(try await auth.send(.post, "/otp", json: #"{"email":" spaced@example.com "}"#).code == "validation_failed")
            #expect(try await auth.signIn(SessionTests.sofia.uppercased(), AuthHarness.demoPassword).status == .ok)
        }
    }

    @Test("refresh rotates the token; a replay within the interval yields the active token, after it ends the session (unless it is the active token's parent)")
    func rotationAndReuse() async throws {
        try await AuthHarness.with { auth in
            let first = try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)
            let token1 = try #require(first["refresh_token"])
            let second = try await auth.refresh(token1)
            #expect(second.status == .ok)
            let token2 = try #require(second["refresh_token"])
            #expect(token2 != token1)
            let stored = try await auth.query("SELECT count(*)::int FROM auth.refresh_tokens WHERE token_hash IN (\(token1), \(token2))")
            #expect(try stored[0].decode(Int.self, at: 0) == 0, "only hashes are stored")

            auth.clock.advance(5)
            let replay = try await auth.refresh(token1)
            #expect(replay.status == .ok)
            #expect(replay["refresh_token"] == token2)

            auth.clock.advance(10)
            // The active token's direct parent gets it back however late: its client lost a reply.
            let lost = try await auth.refresh(token1)
            #expect(lost.status == .ok)
            #expect(lost["refresh_token"] == token2)
            let third = try await auth.refresh(token2)
            let token3 = try #require(third["refresh_token"])

            // Now token1 is two rotations behind and its interval is long gone: the session ends.
            let late = try await auth.refresh(token1)
            #expect(late.status == .badRequest)
            #expect(late.code == "refresh_token_already_used")
            #expect(late["message"] == "Invalid Refresh Token: Already Used")
            let revoked = try await auth.refresh(token3)
            #expect(revoked.code == "refresh_token_not_found")
            let access = try #require(second["access_token"])
            let user = try await auth.send(.get, "/user", bearer: access)
            #expect(user.status == .forbidden)
            #expect(user.code == "session_not_found")
            #expect(try await auth.refresh("made-up").code == "refresh_token_not_found")
        }
    }

    @Test("concurrent refreshes of one token (two tabs) all succeed with the same new token")
    func concurrentRefreshes() async throws {
        try await AuthHarness.with { auth in
            for round in 0..<3 {
                let signedIn = try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)
                let token = try #require(signedIn["refresh_token"])
                let replies = try await withThrowingTaskGroup(of: AuthHarness.Reply.self) { group in
                    for _ in 0..<4 { group.addTask { try await auth.refresh(token) } }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(replies.map(\.status) == Array(repeating: .ok, count: 4), "round \(round): \(replies.map(\.text))")
                #expect(Set(replies.compactMap { $0["refresh_token"] }).count == 1, "round \(round): one successor")
            }
        }
    }

    @Test("logout scopes: local ends this session, others all but this one, global every one")
    func logoutScopes() async throws {
        try await AuthHarness.with { auth in
            func session() async throws -> String {
                try #require(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)["access_token"])
            }
            func alive(_ token: String) async throws -> Bool { try await auth.send(.get, "/user", bearer: token).status == .ok }
            let a = try await session(), b = try await session(), c = try await session()
            for scope in ["all", "LOCAL"] {
                let refused = try await auth.send(.post, "/logout?scope=\(scope)", bearer: a)
                #expect(refused.status == .badRequest)
                #expect(refused.code == "validation_failed")
                #expect(refused["message"] == "Unsupported logout scope \"\(scope)\"")
            }
            #expect(try await alive(a))
            #expect(try await auth.send(.post, "/logout?scope=local", bearer: a).status == .noContent)
            #expect(try await alive(a) == false)
            #expect(try await alive(b))
            #expect(try await auth.send(.post, "/logout?scope=others", bearer: b).status == .noContent)
            #expect(try await alive(b))
            #expect(try await alive(c) == false)
            let d = try await session()
            #expect(try await auth.send(.post, "/logout?scope=global", bearer: d).status == .noContent)
            #expect(try await alive(b) == false)
            #expect(try await alive(d) == false)
            // An empty scope is the default, global, as in GoTrue.
            let e = try await session(), f = try await session()
            #expect(try await auth.send(.post, "/logout?scope=", bearer: e).status == .noContent)
            #expect(try await alive(e) == false)
            #expect(try await alive(f) == false)
        }
    }

    @Test("GET /user refuses an expired access token with bad_jwt; PUT /user merges metadata and changes the password")
    func userEndpoint() async throws {
        var configuration = AuthConfiguration()
        configuration.jwtExpiry = 60
        try await AuthHarness.with(configuration: configuration) { auth in
            let signIn = try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)
            let access = try #require(signIn["access_token"])
            let update = try await auth.send(.put, "/user", bearer: access, json: #"{"data":{"theme":"dark"},"password":"new-password-1"}"#)
            #expect(update.status == .ok)
            #expect((update.object["user_metadata"] as? [String: Any])?["theme"] as? String == "dark")
            // Merged key by key; a null removes its key (supabase-js's way to drop one), nested values are replaced whole.
            let renewed = try await auth.signIn(SessionTests.sofia, "new-password-1")
            #expect(renewed.status == .ok)
            let current = try #require(renewed["access_token"])
            _ = try await auth.send(.put, "/user", bearer: current, json: #"{"data":{"keep":1,"nested":{"a":1,"b":null}}}"#)
            let merged = try await auth.send(.put, "/user", bearer: current, json: #"{"data":{"theme":null,"nested":{"c":null}}}"#)
            let metadata = merged.object["user_metadata"] as? [String: Any] ?? [:]
            #expect(metadata["theme"] == nil && metadata.keys.contains("theme") == false, "\(metadata)")
            #expect(metadata["keep"] as? Int == 1)
            #expect(metadata["nested"] as? [String: NSNull] == ["c": NSNull()], "\(metadata)")
            #expect(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword).code == "invalid_credentials")
            let expired = try await AccessTokenIssuer(secret: AuthHarness.secret).token(
                role: .authenticated, subject: "a1000000-0000-4000-8000-000000000003", lifetime: 60,
                now: Date().addingTimeInterval(-3600))
            let reply = try await auth.send(.get, "/user", bearer: expired)
            #expect(reply.status == .forbidden)
            #expect(reply.code == "bad_jwt")
            #expect(reply["message"]?.hasSuffix("token is expired") == true)
        }
    }
}
