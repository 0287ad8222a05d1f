import Foundation
import Testing

@testable import CompassAuth
@testable import CompassTokens

/// What the official clients' admin calls need: GoTrue's admin roles and tokens without `exp`,
/// `list_users()`' empty paging parameters, its order and headers, and `user.identities`.
@Suite("/auth/v1 admin as the clients call it", .serialized)
struct AdminClientCompatibilityTests {
    static let secret = AuthHarness.secret

    /// `claims` signed as written, as the clients' suites sign their admin tokens (PyJWT, no `exp`).
    static func token(_ claims: String, secret: String = secret) -> String {
        HS256Text.token(claimsJSON: claims, secret: secret)
    }

    @Test("service_role and supabase_admin tokens, with or without exp, are admins; others are not")
    func adminRoles() async throws {
        try await AuthHarness.with { auth in
            let now = Int(Date().timeIntervalSince1970)
            for claims in [
                #"{"role":"service_role"}"#, #"{"sub":"1234567890","role":"supabase_admin"}"#,
                #"{"role":"supabase_admin","exp":\#(now + 60)}"#,
            ] {
                let reply = try await auth.send(.get, "/admin/users", bearer: Self.token(claims))
                #expect(reply.status == .ok, "\(claims)")
            }
            for claims in [
                #"{"role":"postgres"}"#, #"{"role":"anon"}"#,
                #"{"role":"authenticated","sub":"a1000000-0000-4000-8000-000000000003"}"#,
            ] {
                let reply = try await auth.send(.get, "/admin/users", bearer: Self.token(claims))
                #expect(reply.status == .forbidden, "\(claims)")
                #expect(reply.code == "not_admin")
            }
            // As GoTrue: a token that does not verify is `bad_jwt`, no token at all 401.
            let expired = try await auth.send(.get, "/admin/users", bearer: Self.token(#"{"role":"supabase_admin","exp":\#(now - 60)}"#))
            #expect(expired.status == .forbidden)
            #expect(expired.code == "bad_jwt")
            #expect(expired["message"] == "invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired")
            let forged = Self.token(#"{"role":"supabase_admin"}"#, secret: "someone else's secret, long enough for HS256")
            #expect(try await auth.send(.get, "/admin/users", bearer: forged).code == "bad_jwt")
            let none = try await auth.send(.get, "/admin/users")
            #expect(none.status == .unauthorized)
            #expect(none.code == "no_authorization")
            #expect(none["message"] == "This endpoint requires a valid Bearer token")
        }
    }

    @Test("list_users' empty page and per_page are the defaults; newest first, with X-Total-Count and Link")
    func listUsersPaging() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            let created = try await auth.send(
                .post, "/admin/users", bearer: admin, json: #"{"email":"newest@example.com","password":"newest-pass"}"#)
            #expect(created.status == .ok)
            let all = try await auth.send(.get, "/admin/users?page=&per_page=", bearer: admin)
            #expect(all.status == .ok)
            let users = try #require(all.object["users"] as? [[String: Any]])
            #expect(users.count == 8)
            #expect(users.first?["email"] as? String == "newest@example.com")
            #expect(all.headers[.init("X-Total-Count")!] == "8")
            #expect(all.headers[.init("Link")!] == #"</auth/v1/admin/users?page=1&per_page=>; rel="last""#)

            let second = try await auth.send(.get, "/admin/users?per_page=3&page=2", bearer: admin)
            #expect((second.object["users"] as? [Any])?.count == 3)
            #expect(
                second.headers[.init("Link")!]
                    == #"</auth/v1/admin/users?page=3&per_page=3>; rel="next", </auth/v1/admin/users?page=3&per_page=3>; rel="last""#)
            let bad = try await auth.send(.get, "/admin/users?page=two", bearer: admin)
            #expect(bad.status == .badRequest)
            #expect(bad.code == "validation_failed")
        }
    }

    @Test("list_users' filter matches email or full_name, counted the same; sort orders by created_at either way")
    func listUsersFilterAndSort() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            for (email, name) in [("filter-one@example.com", "Zed Quill"), ("filter-two@example.com", "Amy Quillon"), ("plain@example.com", "Bo")] {
                let created = try await auth.send(
                    .post, "/admin/users", bearer: admin,
                    json: #"{"email":"\#(email)","password":"filter-pass","user_metadata":{"full_name":"\#(name)"}}"#)
                #expect(created.status == .ok)
            }
            func emails(_ query: String) async throws -> (emails: [String], total: String?) {
                let reply = try await auth.send(.get, "/admin/users?" + query, bearer: admin)
                #expect(reply.status == .ok, "\(query)")
                let users = reply.object["users"] as? [[String: Any]] ?? []
                return (users.compactMap { $0["email"] as? String }, reply.headers[.init("X-Total-Count")!])
            }
            let byEmail = try await emails("filter=filter-")
            #expect(byEmail.emails == ["filter-two@example.com", "filter-one@example.com"])
            #expect(byEmail.total == "2")
            #expect(try await emails("filter=quill").emails == ["filter-two@example.com", "filter-one@example.com"], "full_name in any case")
            #expect(try await emails("filter=FILTER-").emails.isEmpty, "the email as written")
            #expect(try await emails("filter=filter-&sort=created_at%20asc").emails == ["filter-one@example.com", "filter-two@example.com"])
            // A space sent as `+` (httpx, URLSearchParams), as Go's URL.Query reads it.
            #expect(try await emails("filter=filter-&sort=created_at+asc").emails == ["filter-one@example.com", "filter-two@example.com"])
            #expect(try await emails("filter=zed+quill").emails == ["filter-one@example.com"])
            #expect(try await emails("filter=filter-&sort=created_at").emails.first == "filter-two@example.com")
            let all = try await emails("filter=")
            #expect(all.total == "10")
            for bad in ["sort=email", "sort=created_at%20sideways"] {
                let reply = try await auth.send(.get, "/admin/users?" + bad, bearer: admin)
                #expect(reply.status == .badRequest && reply.code == "validation_failed", "\(bad)")
            }
        }
    }

    @Test("users carry their email identity; confirming the address marks it verified")
    func identities() async throws {
        try await AuthHarness.with { auth in
            let signUp = try await auth.send(.post, "/signup", json: #"{"email":"ident@example.com","password":"ident-pass","data":{"k":"v"}}"#)
            let user = try #require(signUp.object["user"] as? [String: Any])
            let id = try #require(user["id"] as? String)
            let identity = try #require((user["identities"] as? [[String: Any]])?.first)
            #expect(identity["provider"] as? String == "email")
            #expect(identity["id"] as? String == id)
            #expect(identity["user_id"] as? String == id)
            #expect(identity["identity_id"] is String)
            #expect(identity["email"] as? String == "ident@example.com")
            #expect(identity["created_at"] is String && identity["updated_at"] is String)
            let data = try #require(identity["identity_data"] as? [String: Any])
            #expect(data["sub"] as? String == id)
            #expect(data["email"] as? String == "ident@example.com")
            #expect(data["email_verified"] as? Bool == true)
            #expect(data["phone_verified"] as? Bool == false)
            #expect(data["k"] as? String == "v")

            // An admin-made, unconfirmed account: not verified until confirmed.
            let admin = auth.keys.serviceRole
            let made = try await auth.send(.post, "/admin/users", bearer: admin, json: #"{"email":"later@example.com"}"#)
            let madeID = try #require(made["id"])
            let before = (made.object["identities"] as? [[String: Any]])?.first?["identity_data"] as? [String: Any]
            #expect(before?["email_verified"] as? Bool == false)
            let confirmed = try await auth.send(.put, "/admin/users/\(madeID)", bearer: admin, json: #"{"email_confirm":true}"#)
            let after = (confirmed.object["identities"] as? [[String: Any]])?.first?["identity_data"] as? [String: Any]
            #expect(after?["email_verified"] as? Bool == true)
            // Another account's address, in any case: GoTrue's 422, and nothing changes.
            let taken = try await auth.send(.put, "/admin/users/\(madeID)", bearer: admin, json: #"{"email":"Maria.Rivera@example.com"}"#)
            #expect(taken.status == .unprocessableContent, "\(taken.text)")
            #expect(taken.code == "email_exists")
            #expect(try await auth.send(.get, "/admin/users/\(madeID)", bearer: admin)["email"] == "later@example.com")

            // Accounts that existed before identities did (the demo's) have theirs too.
            let maria = try await auth.send(.get, "/admin/users/a1000000-0000-4000-8000-000000000001", bearer: admin)
            #expect((maria.object["identities"] as? [[String: Any]])?.first?["provider"] as? String == "email")
        }
    }

    @Test("generate_link returns a working link and code without mailing; invite marks invited_at")
    func generateLinkAndInvite() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            let signup = try await auth.send(
                .post, "/admin/generate_link", bearer: admin,
                json: #"{"type":"signup","email":"linked@example.com","password":"linked-pass","data":{"status":"alpha"}}"#)
            #expect(signup.status == .ok)
            #expect((signup.object["user_metadata"] as? [String: Any])?["status"] as? String == "alpha")
            #expect(signup["verification_type"] == "signup")
            #expect(signup["email_otp"]?.count == 6)
            let link = try #require(signup["action_link"])
            let hashed = try #require(signup["hashed_token"])
            #expect(link.hasPrefix("http://localhost:4000/auth/v1/verify?token=\(hashed)&type=signup"))
            let verified = try await auth.send(.post, "/verify", json: json(["type": "signup", "token_hash": hashed]))
            #expect(verified.status == .ok)
            #expect((verified.object["user"] as? [String: Any])?["email_confirmed_at"] is String)

            let change = try await auth.send(
                .post, "/admin/generate_link", bearer: admin,
                json: #"{"type":"email_change_current","email":"linked@example.com","new_email":"moved@example.com"}"#)
            #expect(change["new_email"] == "moved@example.com")
            #expect(change["verification_type"] == "email_change_current")
            #expect(change["action_link"]?.contains("&type=email_change&") == true)
            let unknown = try await auth.send(.post, "/admin/generate_link", bearer: admin, json: #"{"type":"recovery","email":"nobody@example.com"}"#)
            #expect(unknown.code == "user_not_found")
            let bogus = try await auth.send(.post, "/admin/generate_link", bearer: admin, json: #"{"type":"bogus","email":"linked@example.com"}"#)
            #expect(bogus.code == "validation_failed")
            #expect(try await auth.send(.post, "/admin/generate_link", json: #"{"type":"signup"}"#).code == "no_authorization")

            let invited = try await auth.send(.post, "/invite", bearer: admin, json: #"{"email":"invitee@example.com","data":{"team":"b"}}"#)
            #expect(invited.status == .ok)
            #expect(invited["invited_at"] != nil)
            #expect(invited["email_confirmed_at"] == nil)
            let taken = try await auth.send(.post, "/invite", bearer: admin, json: #"{"email":"maria.rivera@example.com"}"#)
            #expect(taken.code == "email_exists")
        }
    }
}
