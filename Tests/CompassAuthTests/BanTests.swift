import CompassTestSupport
import Foundation
import Testing

@testable import CompassAuth

/// An admin's `ban_duration` and chosen `id`, as supabase-py's `update_user_by_id` and
/// `create_user` send them.
@Suite("/auth/v1 admin bans and chosen ids")
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
            let until = try #require(banned["banned_until"].flatMap(SessionIssuer.isoDate))
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
}
