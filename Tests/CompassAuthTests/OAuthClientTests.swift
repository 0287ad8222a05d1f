import CompassAuth
import Crypto
import Foundation
import HTTPTypes
import Testing

/// The OAuth 2.1 server's client registry (`COMPASS_AUTH_OAUTH_SERVER_ENABLED`), as
/// supabase-py's `auth.admin.oauth` drives GoTrue's.
@Suite("OAuth client registry")
struct OAuthClientTests {
    static var serverOn: AuthConfiguration {
        var configuration = AuthConfiguration()
        configuration.oauthServer = true
        return configuration
    }

    static func body(_ fields: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
    }

    @Test("an admin registers, reads, lists, renames, re-keys and deletes a client; only a hash of its secret is kept")
    func lifecycle() async throws {
        try await AuthHarness.with(configuration: Self.serverOn) { auth in
            let admin = auth.keys.serviceRole
            let created = try await auth.send(
                .post, "/admin/oauth/clients", bearer: admin,
                json: Self.body(["client_name": "Scout App", "redirect_uris": ["https://scout.example/callback", "myapp://callback"],
                                 "client_uri": "https://scout.example"]))
            #expect(created.status == .created)
            let id = try #require(created["client_id"])
            let secret = try #require(created["client_secret"])
            #expect(created["client_type"] == "confidential")
            #expect(created["token_endpoint_auth_method"] == "client_secret_basic")
            #expect(created["registration_type"] == "manual")
            #expect(created.object["grant_types"] as? [String] == ["authorization_code", "refresh_token"])
            #expect(created.object["response_types"] as? [String] == ["code"])
            #expect(created.object["redirect_uris"] as? [String] == ["https://scout.example/callback", "myapp://callback"])
            #expect(created.object["logo_uri"] == nil)
            let stored = try await auth.query("SELECT client_secret_hash FROM auth.oauth_clients WHERE id = \(UUID(uuidString: id)!)")
            let expectedHash = Data(SHA256.hash(data: Data(secret.utf8))).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(try stored.first?.decode(String.self, at: 0) == expectedHash)

            let read = try await auth.send(.get, "/admin/oauth/clients/\(id)", bearer: admin)
            #expect(read.status == .ok)
            #expect(read["client_name"] == "Scout App")
            #expect(read["client_secret"] == nil)

            let second = try await auth.send(
                .post, "/admin/oauth/clients", bearer: admin, json: Self.body(["redirect_uris": ["http://localhost:3000/cb"]]))
            #expect(second.status == .created)
            #expect(second.object["client_name"] == nil)
            let list = try await auth.send(.get, "/admin/oauth/clients", bearer: admin)
            let clients = try #require(list.object["clients"] as? [[String: Any]])
            #expect(clients.map { $0["client_id"] as? String } == [second["client_id"], id])
            #expect(clients.allSatisfy { $0["client_secret"] == nil })
            #expect(list.headers[HTTPField.Name("X-Total-Count")!] == "2")
            let paged = try await auth.send(.get, "/admin/oauth/clients?page=2&per_page=1", bearer: admin)
            #expect((paged.object["clients"] as? [[String: Any]])?.map { $0["client_id"] as? String } == [id])

            let renamed = try await auth.send(
                .put, "/admin/oauth/clients/\(id)", bearer: admin, json: Self.body(["client_name": "Scout", "logo_uri": "https://scout.example/logo.png"]))
            #expect(renamed.status == .ok)
            #expect(renamed["client_name"] == "Scout")
            #expect(renamed["logo_uri"] == "https://scout.example/logo.png")
            #expect(renamed["client_uri"] == "https://scout.example")
            #expect(renamed.object["redirect_uris"] as? [String] == ["https://scout.example/callback", "myapp://callback"])

            let rekeyed = try await auth.send(.post, "/admin/oauth/clients/\(id)/regenerate_secret", bearer: admin)
            #expect(rekeyed.status == .ok)
            let newSecret = try #require(rekeyed["client_secret"])
            #expect(newSecret != secret)
            let rehashed = try await auth.query("SELECT client_secret_hash FROM auth.oauth_clients WHERE id = \(UUID(uuidString: id)!)")
            #expect(try rehashed.first?.decode(String.self, at: 0) != expectedHash)

            let deleted = try await auth.send(.delete, "/admin/oauth/clients/\(id)", bearer: admin)
            #expect(deleted.status == .noContent)
            let gone = try await auth.send(.get, "/admin/oauth/clients/\(id)", bearer: admin)
            #expect(gone.status == .notFound)
            #expect(gone.code == "oauth_client_not_found")
            #expect(try await auth.send(.delete, "/admin/oauth/clients/\(id)", bearer: admin).status == .notFound)
            #expect(try await auth.send(.post, "/admin/oauth/clients/\(id)/regenerate_secret", bearer: admin).status == .notFound)
            let after = try await auth.send(.get, "/admin/oauth/clients", bearer: admin)
            #expect((after.object["clients"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test("a public client has no secret, and none can be made for it")
    func publicClients() async throws {
        try await AuthHarness.with(configuration: Self.serverOn) { auth in
            let admin = auth.keys.serviceRole
            for fields: [String: Any] in [["client_type": "public"], ["token_endpoint_auth_method": "none"]] {
                var request = fields
                request["redirect_uris"] = ["https://app.example/cb"]
                let created = try await auth.send(.post, "/admin/oauth/clients", bearer: admin, json: Self.body(request))
                #expect(created.status == .created)
                #expect(created["client_type"] == "public")
                #expect(created["token_endpoint_auth_method"] == "none")
                #expect(created["client_secret"] == nil)
                let id = try #require(created["client_id"])
                let refused = try await auth.send(.post, "/admin/oauth/clients/\(id)/regenerate_secret", bearer: admin)
                #expect(refused.status == .badRequest)
                #expect(refused["message"] == "Cannot regenerate secret for public client")
                let method = try await auth.send(
                    .put, "/admin/oauth/clients/\(id)", bearer: admin, json: Self.body(["token_endpoint_auth_method": "client_secret_post"]))
                #expect(method.status == .badRequest)
                #expect(method["message"]?.hasPrefix("token_endpoint_auth_method 'client_secret_post' is not valid for client_type 'public'") == true)
            }
            let hashes = try await auth.query("SELECT count(*)::int FROM auth.oauth_clients WHERE client_secret_hash IS NOT NULL")
            #expect(try hashes.first?.decode(Int.self, at: 0) == 0)
        }
    }

    @Test("bad registrations and updates are refused with GoTrue's reasons, and change nothing")
    func validation() async throws {
        try await AuthHarness.with(configuration: Self.serverOn) { auth in
            let admin = auth.keys.serviceRole
            let refusals: [([String: Any], String)] = [
                (["client_name": "x"], "redirect_uris is required"),
                (["redirect_uris": [String]()], "redirect_uris is required"),
                (["redirect_uris": ["http://evil.example/cb"]], "invalid redirect_uri 'http://evil.example/cb': HTTP scheme only allowed for localhost"),
                (["redirect_uris": ["javascript://x/alert(1)"]], "invalid redirect_uri 'javascript://x/alert(1)': scheme 'javascript' is not allowed for security reasons"),
                (["redirect_uris": ["https://app.example/cb#frag"]], "invalid redirect_uri 'https://app.example/cb#frag': fragment not allowed in redirect URI"),
                (["redirect_uris": ["/relative"]], "invalid redirect_uri '/relative': must have scheme and host"),
                // The scheme is compared case-blind; a backslash, a control character or a stray
                // `%` make no URL (browsers would read `evil.com\@localhost` as host evil.com).
                (["redirect_uris": ["HTTP://evil.example/cb"]], "invalid redirect_uri 'HTTP://evil.example/cb': HTTP scheme only allowed for localhost"),
                (["redirect_uris": [#"http://evil.example\@localhost/cb"#]], #"invalid redirect_uri 'http://evil.example\@localhost/cb': invalid URL format"#),
                (["redirect_uris": ["https://app.example/cb\r\nSet-Cookie: a=b"]], "invalid redirect_uri 'https://app.example/cb\r\nSet-Cookie: a=b': invalid URL format"),
                (["redirect_uris": ["http://%6cocalhost/cb"]], "invalid redirect_uri 'http://%6cocalhost/cb': invalid URL format"),
                (["redirect_uris": ["https://app.example/%zz"]], "invalid redirect_uri 'https://app.example/%zz': invalid URL format"),
                (["redirect_uris": ["https://app.example/cb"], "client_uri": "https://app.example/\u{1}"], "client_uri must be a valid URL"),
                // Lengths are UTF-8 bytes, as GoTrue counts them: 600 "é" written with a combining
                // accent are 600 characters but 1,800 bytes (and 1,200 code points, past the table's check).
                (["redirect_uris": ["https://app.example/cb"], "client_name": String(repeating: "e\u{301}", count: 600)],
                 "client_name cannot exceed 1024 characters"),
                (["redirect_uris": (0..<11).map { "https://app.example/\($0)" }], "redirect_uris cannot exceed 10 items"),
                (["redirect_uris": ["https://app.example/cb"], "grant_types": ["password"]],
                 "grant_types must only contain 'authorization_code' and/or 'refresh_token'"),
                (["redirect_uris": ["https://app.example/cb"], "client_type": "secret"], "client_type must be 'public' or 'confidential'"),
                (["redirect_uris": ["https://app.example/cb"], "client_type": "confidential", "token_endpoint_auth_method": "none"],
                 "client_type 'confidential' is inconsistent with token_endpoint_auth_method 'none' (expected client_type 'public')"),
                (["redirect_uris": ["https://app.example/cb"], "client_name": String(repeating: "n", count: 1025)],
                 "client_name cannot exceed 1024 characters"),
                (["redirect_uris": ["https://app.example/cb"], "logo_uri": "not a url"], "logo_uri must be a valid URL"),
            ]
            for (fields, message) in refusals {
                let reply = try await auth.send(.post, "/admin/oauth/clients", bearer: admin, json: Self.body(fields))
                #expect(reply.status == .badRequest, "\(fields)")
                #expect(reply.code == "validation_failed")
                #expect(reply["message"] == message)
            }
            let longest = try await auth.send(
                .post, "/admin/oauth/clients", bearer: admin,
                json: Self.body(["redirect_uris": ["HTTPS://App.Example/cb", "http://[::1]:3000/cb"], "client_name": String(repeating: "n", count: 1024)]))
            #expect(longest.status == .created)
            _ = try await auth.query("DELETE FROM auth.oauth_clients")
            let notJSON = try await auth.send(.post, "/admin/oauth/clients", bearer: admin, json: #"{"redirect_uris":"https://a.example/cb"}"#)
            #expect(notJSON.code == "bad_json")
            let nul = try await auth.send(.post, "/admin/oauth/clients", bearer: admin, json: #"{"redirect_uris":["https://a.example/cb"],"client_name":"a\u0000b"}"#)
            #expect(nul.status == .badRequest)
            #expect(try await auth.query("SELECT count(*)::int FROM auth.oauth_clients").first?.decode(Int.self, at: 0) == 0)

            let malformed = try await auth.send(.get, "/admin/oauth/clients/not-a-uuid", bearer: admin)
            #expect(malformed.status == .badRequest)
            #expect(malformed["message"] == "invalid client_id format")
            let unknown = try await auth.send(.put, "/admin/oauth/clients/\(UUID())", bearer: admin, json: Self.body(["client_name": "x"]))
            #expect(unknown.status == .notFound)
            #expect(unknown.code == "oauth_client_not_found")

            let created = try await auth.send(
                .post, "/admin/oauth/clients", bearer: admin, json: Self.body(["client_name": "Kept", "redirect_uris": ["https://a.example/cb"]]))
            let id = try #require(created["client_id"])
            for (fields, message) in [([String: Any](), "No fields provided for update"),
                                      (["redirect_uris": [String]()], "redirect_uris cannot be empty"),
                                      (["grant_types": [String]()], "grant_types cannot be empty"),
                                      (["token_endpoint_auth_method": "none"],
                                       "token_endpoint_auth_method 'none' is not valid for client_type 'confidential'; valid methods: [client_secret_basic client_secret_post]")] {
                let reply = try await auth.send(.put, "/admin/oauth/clients/\(id)", bearer: admin, json: Self.body(fields))
                #expect(reply.status == .badRequest, "\(fields)")
                #expect(reply["message"] == message)
            }
            // A field the checks above let through but the table refuses is still a 400.
            _ = try await auth.query("ALTER TABLE auth.oauth_clients ADD CONSTRAINT short_names CHECK (char_length(client_name) <= 10)")
            let tooLong = try await auth.send(.put, "/admin/oauth/clients/\(id)", bearer: admin, json: Self.body(["client_name": "Eleven char"]))
            #expect(tooLong.status == .badRequest)
            #expect(tooLong.code == "validation_failed")
            let kept = try await auth.send(.get, "/admin/oauth/clients/\(id)", bearer: admin)
            #expect(kept["client_name"] == "Kept")
            #expect(kept["updated_at"] == created["updated_at"])
        }
    }

    @Test("only the admin key manages clients, with the server on too")
    func adminOnly() async throws {
        try await AuthHarness.with(configuration: Self.serverOn) { auth in
            let token = try #require(try await auth.signIn(MailLimitTests.maria, AuthHarness.demoPassword)["access_token"])
            for bearer in [auth.keys.anon, token] {
                let create = try await auth.send(.post, "/admin/oauth/clients", bearer: bearer, json: Self.body(["redirect_uris": ["https://a.example/cb"]]))
                #expect(create.code == "not_admin")
                #expect(try await auth.send(.get, "/admin/oauth/clients", bearer: bearer).code == "not_admin")
            }
            #expect(try await auth.query("SELECT count(*)::int FROM auth.oauth_clients").first?.decode(Int.self, at: 0) == 0)
        }
    }

    @Test("dynamic registration needs its own switch, is limited per address, and makes a dynamic client")
    func dynamicRegistration() async throws {
        let request = Self.body(["client_name": "Third Party", "redirect_uris": ["https://third.example/cb"]])
        try await AuthHarness.with(configuration: Self.serverOn) { auth in
            let refused = try await auth.send(.post, "/oauth/clients/register", json: request)
            #expect(refused.status == .forbidden)
            #expect(refused.code == "oauth_dynamic_client_registration_disabled")
        }
        var configuration = Self.serverOn
        configuration.oauthDynamicRegistration = true
        configuration.oauthRegistrationsPerHour = 2
        try await AuthHarness.with(configuration: configuration) { auth in
            for _ in 0..<2 {
                let created = try await auth.send(.post, "/oauth/clients/register", json: request)
                #expect(created.status == .created)
                #expect(created["registration_type"] == "dynamic")
                #expect(created["client_secret"] != nil)
            }
            let limited = try await auth.send(.post, "/oauth/clients/register", json: request)
            #expect(limited.status == .tooManyRequests)
            #expect(try await auth.query("SELECT count(*)::int FROM auth.oauth_clients").first?.decode(Int.self, at: 0) == 2)
        }
    }

    @Test("with the server on, the authorization flow says it is not served")
    func flowNotServed() async throws {
        try await AuthHarness.with(configuration: Self.serverOn) { auth in
            for (method, path) in [(HTTPRequest.Method.post, "/oauth/token"), (.get, "/oauth/authorize"),
                                   (.get, "/.well-known/oauth-authorization-server")] {
                let reply = try await auth.send(method, path)
                #expect(reply.status == .notImplemented, "\(path)")
                #expect(reply.code == "feature_disabled")
            }
        }
    }
}
