import CompassAuth
import CompassTestSupport
import Foundation
import Testing

@Suite("/auth/v1 sign-up does not tell who has an account", .serialized)
struct SignUpPrivacyTests {
    /// Each key of a user reply and whether its value is null, which is what a client could compare.
    static func shape(_ user: [String: Any]) -> [String: Bool] {
        user.mapValues { $0 is NSNull }
    }

    @Test("with confirmation on, a taken email gets what a new sign-up gets: 200, an unconfirmed user with a fresh id")
    func takenEmailLooksLikeANewSignUp() async throws {
        var configuration = AuthConfiguration()
        configuration.autoconfirm = false
        try await AuthHarness.with(configuration: configuration) { auth in
            let fresh = try await auth.send(
                .post, "/signup", json: #"{"email":"newcomer@example.com","password":"secret-123","data":{"sport":"golf"}}"#)
            #expect(fresh.status == .ok)
            #expect(fresh["access_token"] == nil)
            for (email, data) in [("Sofia.Rivera@example.com", #"{"sport":"tennis"}"#), ("newcomer@example.com", #"{"x":2}"#)] {
                let taken = try await auth.send(.post, "/signup", json: #"{"email":"\#(email)","password":"other-pass-1","data":\#(data)}"#)
                #expect(taken.status == .ok)
                #expect(Self.shape(taken.object) == Self.shape(fresh.object))
                #expect(taken["email"] == email.lowercased())
                #expect(taken["role"] == "authenticated" && taken["aud"] == "authenticated")
                #expect(taken.object["email_confirmed_at"] == nil && taken.object["confirmed_at"] == nil)
                #expect((taken.object["identities"] as? [Any])?.isEmpty == true)
                #expect((taken.object["user_metadata"] as? [String: Any])?.keys.sorted() == [data.contains("x") ? "x" : "sport"])
                let id = try #require(taken["id"].flatMap(UUID.init(uuidString:)))
                let stored = try await auth.query("SELECT count(*)::int FROM auth.users WHERE id = \(id)")
                #expect(try stored[0].decode(Int.self, at: 0) == 0, "the id is made up")
            }
            #expect(try await auth.send(.post, "/signup", json: #"{"email":"sofia.rivera@example.com","password":"x"}"#).code
                == "weak_password", "the password is checked first, as for a new account")
            // Nothing was written: one newcomer, Sofia's password and metadata unchanged.
            let newcomers = try await auth.query("SELECT count(*)::int FROM auth.users WHERE email = 'newcomer@example.com'")
            #expect(try newcomers[0].decode(Int.self, at: 0) == 1)
            let sofia = try await auth.query("SELECT raw_user_meta_data ? 'sport' FROM auth.users WHERE id = \(DemoFixture.sofia)")
            #expect(try sofia[0].decode(Bool.self, at: 0) == false)
            #expect(try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword).status == .ok)
        }
    }
}
