import CompassTestSupport
import Foundation
import Testing

@testable import CompassAuth

/// An admin's `ban_duration`, chosen `id` and imported `password_hash`, as supabase-py's
/// `update_user_by_id` and `create_user` send them.
@Suite("/auth/v1 admin bans, chosen ids and imported hashes")
struct BanTests {
    static let sofia = "sofia.rivera@example.com"

    @Test("durations read as Go's time.ParseDuration reads them")
    func durations() throws {
        let cases: [(String, Double?)] = [
            ("24h", 86_400), ("1h30m", 5_400), ("1.5h", 5_400), ("300ms", 0.3), (".5s", 0.5), ("-1h", -3_600),
            ("+2m", 120), ("0", 0), ("1h0m0s", 3_600), ("2µs", 2e-6), ("none", nil),
        ]
        for (text, seconds) in cases {
            let read = try BanDuration.seconds(text)
            #expect(read.map { abs($0 - (seconds ?? .nan)) < 1e-9 } ?? (seconds == nil), "\(text)")
        }
        for text in ["", "5", "1d", "h", "24 hours", "1e3s", "1..5h", "3000000h", "+", "-", "0x10s"] {
            #expect(throws: AuthError.self, "\(text)") { try BanDuration.seconds(text) }
        }
    }

    @Test("a ban ends the account's sessions and refuses sign-in until it is lifted")
    func banAndLift() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            let session = try await auth.signIn(Self.sofia, AuthHarness.demoPassword)
            let refresh = try #require(session["refresh_token"])

            let malformed = try await auth.send(
                .put, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: #"{"ban_duration":"24 hours"}"#)
            #expect(malformed.status == .badRequest)
            #expect(malformed["message"]?.hasPrefix("invalid format for ban duration") == true)
            #expect(try await auth.refresh(refresh).status == .ok)

            let banned = try await auth.send(.put, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: #"{"ban_duration":"24h"}"#)
            #expect(banned.status == .ok)
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let until = try #require(banned["banned_until"].flatMap(formatter.date(from:)))
            #expect(abs(until.timeIntervalSinceNow - 86_400) < 600)
            let refused = try await auth.signIn(Self.sofia, AuthHarness.demoPassword)
            #expect(refused.status == .badRequest)
            #expect(refused.code == "user_banned")
            #expect(try await auth.signIn(Self.sofia, "not-her-password").code == "invalid_credentials")
            let sessions = try await auth.query("SELECT count(*)::int FROM auth.sessions WHERE user_id = \(DemoFixture.sofia)")
            #expect(try sessions.first?.decode(Int.self, at: 0) == 0)

            let lifted = try await auth.send(.put, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: #"{"ban_duration":"none"}"#)
            #expect(lifted.status == .ok)
            #expect(lifted.object["banned_until"] == nil)
            #expect(try await auth.signIn(Self.sofia, AuthHarness.demoPassword).status == .ok)
        }
    }

    @Test("an account can be made with its own id, and banned from the start")
    func createWithIdAndBan() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            let id = UUID()
            let created = try await auth.send(
                .post, "/admin/users", bearer: admin,
                json: #"{"id":"\#(id)","email":"new.member@example.com","password":"a-long-password","email_confirm":true,"ban_duration":"1h"}"#)
            #expect(created.status == .ok)
            #expect(created["id"] == id.uuidString.lowercased())
            #expect(created["banned_until"] != nil)
            #expect(try await auth.signIn("new.member@example.com", "a-long-password").code == "user_banned")

            let again = try await auth.send(
                .post, "/admin/users", bearer: admin, json: #"{"id":"\#(id)","email":"other.member@example.com"}"#)
            #expect(again.status == .unprocessableContent)
            #expect(again.code == "user_already_exists")
            for (text, message) in [("not-a-uuid", "ID must conform to the uuid v4 format"),
                                    ("00000000-0000-0000-0000-000000000000", "ID cannot be a nil uuid")] {
                let refused = try await auth.send(
                    .post, "/admin/users", bearer: admin, json: #"{"id":"\#(text)","email":"third.member@example.com"}"#)
                #expect(refused.status == .badRequest)
                #expect(refused["message"] == message)
            }
            let count = try await auth.query(
                "SELECT count(*)::int FROM auth.users WHERE email IN ('other.member@example.com', 'third.member@example.com')")
            #expect(try count.first?.decode(Int.self, at: 0) == 0)
        }
    }

    @Test("a bcrypt hash from another service signs its user in; other hashes are refused by name")
    func importedHashes() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            // libxcrypt's `$2b$` hash of "migrated-password-1" (Python's crypt module).
            let hash = "$2b$10$abcdefghijklmnopqrstuugUQ9Emglifxq3nKZG4QoLiA62zHEo86"
            let created = try await auth.send(
                .post, "/admin/users", bearer: admin,
                json: #"{"email":"migrated@example.com","password_hash":"\#(hash)","email_confirm":true}"#)
            #expect(created.status == .ok)
            #expect(try await auth.signIn("migrated@example.com", "migrated-password-1").status == .ok)
            #expect(try await auth.signIn("migrated@example.com", "migrated-password-2").code == "invalid_credentials")
            let refusals: [(String, String)] = [
                (#""password":"a-long-password","password_hash":"\#(hash)""#, "Only a password or a password hash should be provided"),
                (#""password_hash":"$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA""#, "Only bcrypt password hashes ($2a$, $2b$, $2y$) can be imported here"),
                (#""password_hash":"$2b$31$abcdefghijklmnopqrstuugUQ9Emglifxq3nKZG4QoLiA62zHEo86""#,
                 "Invalid password hash: expected a bcrypt hash ($2a$, $2b$ or $2y$) of cost 4 to 14"),
                (#""password_hash":"plain-text""#, "Invalid password hash: expected a bcrypt hash ($2a$, $2b$ or $2y$) of cost 4 to 14"),
                // Swift's Int("+9") is 9, but pgcrypto would refuse the salt at every sign-in.
                (#""password_hash":"$2b$+9$abcdefghijklmnopqrstuugUQ9Emglifxq3nKZG4QoLiA62zHEo86""#,
                 "Invalid password hash: expected a bcrypt hash ($2a$, $2b$ or $2y$) of cost 4 to 14"),
            ]
            for (fields, message) in refusals {
                let refused = try await auth.send(.post, "/admin/users", bearer: admin, json: #"{"email":"other@example.com",\#(fields)}"#)
                #expect(refused.status == .badRequest)
                #expect(refused["message"] == message)
            }
            let count = try await auth.query("SELECT count(*)::int FROM auth.users WHERE email = 'other@example.com'")
            #expect(try count.first?.decode(Int.self, at: 0) == 0)
        }
    }

    @Test("a role, audience or phone this server cannot honour is refused by name, not dropped")
    func unsupportedAttributes() async throws {
        try await AuthHarness.with { auth in
            let admin = auth.keys.serviceRole
            for (fields, code) in [(#""role":"service_role""#, "validation_failed"), (#""aud":"admins""#, "validation_failed"),
                                   (#""phone":"+15555550100""#, "phone_provider_disabled")] {
                let created = try await auth.send(.post, "/admin/users", bearer: admin, json: #"{"email":"role@example.com",\#(fields)}"#)
                #expect(created.status == .badRequest, "\(fields)")
                #expect(created.code == code)
                let updated = try await auth.send(.put, "/admin/users/\(DemoFixture.sofia)", bearer: admin, json: "{\(fields)}")
                #expect(updated.status == .badRequest, "\(fields)")
            }
            let plain = try await auth.send(
                .post, "/admin/users", bearer: admin, json: #"{"email":"role@example.com","role":"authenticated","aud":"authenticated"}"#)
            #expect(plain.status == .ok)
        }
    }
}
