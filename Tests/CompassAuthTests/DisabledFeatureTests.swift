import Foundation
import HTTPTypes
import Testing

/// Phone codes, SAML and the OAuth server are features this server leaves off; a client that
/// calls them gets GoTrue's own replies for a feature that is off, not a bare 404.
@Suite("Auth features that are off answer as GoTrue's do")
struct DisabledFeatureTests {
    @Test("/verify checks a phone code's number as GoTrue does, then finds no code pending")
    func phoneCodes() async throws {
        try await AuthHarness.with { auth in
            let malformed = try await auth.send(
                .post, "/verify", json: json(["type": "sms", "phone": "+15555550100-invalid", "token": "123456"]))
            #expect(malformed.status == .badRequest)
            #expect(malformed.code == "validation_failed")
            #expect(malformed["message"] == "Invalid phone number format (E.164 required)")
            for phone in ["0155555", "+1", "+1234567890123456", "+1555５550100"] {
                let refused = try await auth.send(.post, "/verify", json: json(["type": "sms", "phone": phone, "token": "123456"]))
                #expect(refused["message"] == "Invalid phone number format (E.164 required)", "\(phone)")
            }
            for type in ["sms", "phone_change", "signup"] {
                let none = try await auth.send(.post, "/verify", json: json(["type": type, "phone": "+1 555 555 0100", "token": "123456"]))
                #expect(none.status == .forbidden, "\(type)")
                #expect(none.code == "otp_expired")
                #expect(none["message"] == "Token has expired or is invalid")
            }
            let hashed = try await auth.send(.post, "/verify", json: json(["type": "sms", "token_hash": "abc"]))
            #expect(hashed.code == "otp_expired")
            let both = try await auth.send(
                .post, "/verify", json: json(["type": "sms", "phone": "+15555550100", "email": "a@example.com", "token": "1"]))
            #expect(both["message"] == "Only an email address or phone number should be provided on verify")
            let neither = try await auth.send(.post, "/verify", json: json(["type": "email", "token": "123456"]))
            #expect(neither.status == .badRequest)
            #expect(neither["message"] == "Only an email address or phone number should be provided on verify")
        }
    }

    @Test("phone sign-up and sign-in answer that phone is disabled, and create nothing")
    func phoneAccounts() async throws {
        try await AuthHarness.with { auth in
            let signUp = try await auth.send(.post, "/signup", json: json(["phone": "+15555550100", "password": "secret-123"]))
            #expect(signUp.status == .badRequest)
            #expect(signUp.code == "phone_provider_disabled")
            #expect(signUp["message"] == "Phone signups are disabled")
            let both = try await auth.send(
                .post, "/signup", json: json(["phone": "+15555550100", "email": "both@example.com", "password": "secret-123"]))
            #expect(both["message"] == "Only an email address or phone number should be provided on signup.")
            let signIn = try await auth.send(
                .post, "/token?grant_type=password", json: json(["phone": "+15555550100", "password": "secret-123"]))
            #expect(signIn.status == .unprocessableContent)
            #expect(signIn.code == "phone_provider_disabled")
            #expect(signIn["message"] == "Phone logins are disabled")
            let users = try await auth.query("SELECT count(*)::int FROM auth.users WHERE email = 'both@example.com' OR phone IS NOT NULL")
            #expect(try users.first?.decode(Int.self, at: 0) == 0)
        }
    }

    @Test("single sign-on answers that SAML 2.0 is disabled")
    func saml() async throws {
        try await AuthHarness.with { auth in
            for (method, path) in [(HTTPRequest.Method.post, "/sso"), (.get, "/sso/saml/metadata"), (.post, "/sso/saml/acs")] {
                let reply = try await auth.send(method, path, json: method == .post ? json(["domain": "example.com"]) : nil)
                #expect(reply.status == .notFound, "\(path)")
                #expect(reply.code == "saml_provider_disabled")
                #expect(reply["message"] == "SAML 2.0 is disabled")
            }
        }
    }

    @Test("the OAuth server's routes answer that it is disabled, after the admin and session checks")
    func oauthServer() async throws {
        try await AuthHarness.with { auth in
            let client = json(["client_name": "Test", "redirect_uris": "https://example.com/callback"])
            let adminRoutes: [(HTTPRequest.Method, String)] = [
                (.post, "/admin/oauth/clients"), (.get, "/admin/oauth/clients"), (.get, "/admin/oauth/clients/abc"),
                (.put, "/admin/oauth/clients/abc"), (.delete, "/admin/oauth/clients/abc"),
                (.post, "/admin/oauth/clients/abc/regenerate_secret"),
            ]
            for (method, path) in adminRoutes {
                let anonymous = try await auth.send(method, path, bearer: auth.keys.anon, json: client)
                #expect(anonymous.code == "not_admin", "\(path)")
                let admin = try await auth.send(method, path, bearer: auth.keys.serviceRole, json: client)
                #expect(admin.status == .notFound, "\(path)")
                #expect(admin.code == "feature_disabled")
                #expect(admin["message"] == "OAuth server is disabled")
            }
            #expect(try await auth.send(.get, "/user/oauth/grants").code == "no_authorization")
            let token = try #require(try await auth.signIn(MailLimitTests.maria, AuthHarness.demoPassword)["access_token"])
            #expect(try await auth.send(.get, "/user/oauth/grants", bearer: token).code == "feature_disabled")
            for (method, path) in [(HTTPRequest.Method.post, "/oauth/clients/register"), (.post, "/oauth/token"),
                                   (.get, "/oauth/authorize"), (.get, "/.well-known/oauth-authorization-server")] {
                #expect(try await auth.send(method, path).code == "feature_disabled", "\(path)")
            }
        }
    }
}
