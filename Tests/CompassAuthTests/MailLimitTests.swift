import Foundation
import Testing

@testable import CompassAuth

/// The mail endpoints' refusals and limits, with no SMTP server (tokens are stored, nothing is
/// sent): per-user interval, hourly total, `/verify` guesses, expiry, single use, redirects.
@Suite("/auth/v1 mail limits and verification", .serialized)
struct MailLimitTests {
    static let maria = "maria.rivera@example.com"
    static let mariaID = "a1000000-0000-4000-8000-000000000001"

    /// Stores a recovery token for Maria as a mail would, and returns its link token.
    static func mailedToken(_ auth: AuthHarness) async throws -> String {
        let token = OneTimeTokenKey(secret: AuthHarness.secret).issue(for: maria)
        _ = try await auth.query("""
            INSERT INTO auth.one_time_tokens (user_id, token_type, token_hash, relates_to, created_at)
            VALUES (\(UUID(uuidString: mariaID)!), 'recovery_token', \(token.storedHash), \(maria), \(auth.clock.now))
            ON CONFLICT (user_id, token_type) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at
            """)
        return token.linkToken
    }

    @Test("one mail of a kind per user per interval, and a total per hour; unknown addresses get the same {}")
    func mailLimits() async throws {
        var configuration = AuthConfiguration()
        configuration.mailsPerHour = 2
        try await AuthHarness.with(configuration: configuration) { auth in
            let first = try await auth.send(.post, "/recover", json: json(["email": Self.maria]))
            #expect(first.status == .ok)
            #expect(first.text == "{}")
            let again = try await auth.send(.post, "/recover", json: json(["email": Self.maria]))
            #expect(again.status == .tooManyRequests)
            #expect(again.code == "over_email_send_rate_limit")
            #expect(again["message"] == "For security purposes, you can only request this after 60 seconds.")
            let unknown = try await auth.send(.post, "/recover", json: json(["email": "nobody@example.com"]))
            #expect(unknown.status == .ok && unknown.text == "{}")
            auth.clock.advance(61)
            #expect(try await auth.send(.post, "/recover", json: json(["email": Self.maria])).status == .ok)
            let overHour = try await auth.send(.post, "/recover", json: json(["email": "daniel.rivera@example.com"]))
            #expect(overHour.status == .tooManyRequests)
            #expect(overHour["message"] == "Email rate limit exceeded")
            let sent = try await auth.query("SELECT count(*)::int FROM auth.one_time_tokens")
            #expect(try sent[0].decode(Int.self, at: 0) == 1, "a refused mail leaves no token")
        }
    }

    @Test("a mailed token works once, expires after the OTP lifetime, and wrong codes are refused in GoTrue's words")
    func verification() async throws {
        try await AuthHarness.with { auth in
            let token = try await Self.mailedToken(auth)
            let wrong = try await auth.send(.post, "/verify", json: json(["type": "recovery", "email": Self.maria, "token": "123456"]))
            #expect(wrong.status == .forbidden)
            #expect(wrong.code == "otp_expired")
            #expect(wrong["message"] == "Token has expired or is invalid")
            let signup = try await auth.send(.post, "/verify", json: json(["type": "signup", "token_hash": token]))
            #expect(signup.code == "otp_expired", "a recovery token does not confirm a sign-up")
            let redeemed = try await auth.send(.post, "/verify", json: json(["type": "recovery", "token_hash": token]))
            #expect(redeemed.status == .ok)
            let claims = try await auth.verifier.verify(try #require(redeemed["access_token"]))
            #expect(claims.subject == Self.mariaID)
            #expect(claims.claimsJSON.contains(#""method":"otp""#))
            let reused = try await auth.send(.post, "/verify", json: json(["type": "recovery", "token_hash": token]))
            #expect(reused.code == "otp_expired")

            let late = try await Self.mailedToken(auth)
            auth.clock.advance(3601)
            #expect(try await auth.send(.post, "/verify", json: json(["type": "magiclink", "token_hash": late])).code == "otp_expired")
            #expect(try await auth.send(.post, "/verify", json: json(["type": "recovery"])).code == "validation_failed")
            #expect(try await auth.send(.post, "/verify", json: json(["type": "bogus", "token_hash": late])).code == "validation_failed")
        }
    }

    @Test("a link redirects to the site or an allowed target, with the session or the error in the fragment")
    func linkRedirects() async throws {
        var configuration = AuthConfiguration()
        configuration.siteURL = "https://app.example"
        configuration.redirectAllowList = ["https://*.app.example/**", "compass://auth-callback"]
        try await AuthHarness.with(configuration: configuration) { auth in
            let token = try await Self.mailedToken(auth)
            let evil = "https%3A%2F%2Fevil.example%2Fsteal"
            let refused = try await auth.send(.get, "/verify?token=nope&type=recovery&redirect_to=\(evil)")
            #expect(refused.status == .seeOther)
            let location = try #require(refused.headers[.location])
            #expect(location.hasPrefix("https://app.example#error=access_denied&error_code=otp_expired&error_description=Email%20link"))
            let ok = try await auth.send(.get, "/verify?token=\(token)&type=recovery&redirect_to=compass%3A%2F%2Fauth-callback")
            let target = try #require(ok.headers[.location])
            #expect(target.hasPrefix("compass://auth-callback#access_token="))
            #expect(target.contains("&type=recovery"))
        }
    }

    @Test("guessing codes at /verify is rate-limited per client address")
    func verificationGuessesAreLimited() async throws {
        var configuration = AuthConfiguration()
        configuration.verificationsPerAddress = 3
        try await AuthHarness.with(configuration: configuration) { auth in
            for _ in 0..<3 {
                #expect(try await auth.send(.post, "/verify", json: json(["type": "email", "email": Self.maria, "token": "000000"])).code
                    == "otp_expired")
            }
            let limited = try await auth.send(.post, "/verify", json: json(["type": "email", "email": Self.maria, "token": "000000"]))
            #expect(limited.status == .tooManyRequests)
        }
    }

    @Test("/otp and /resend check their input; phone is not served")
    func badInput() async throws {
        try await AuthHarness.with { auth in
            #expect(try await auth.send(.post, "/recover", json: json(["email": ""])).code == "validation_failed")
            #expect(try await auth.send(.post, "/otp", json: json(["phone": "+15555550100"])).code == "phone_provider_disabled")
            #expect(try await auth.send(.post, "/resend", json: json(["type": "bogus", "email": Self.maria])).code == "validation_failed")
            #expect(try await auth.send(.post, "/resend", json: json(["type": "signup"])).code == "validation_failed")
            #expect(try await auth.send(.post, "/resend", json: json(["type": "sms", "phone": "+15555550100"])).text == "{}")
            let halfChallenge = json(["email": Self.maria, "code_challenge": String(repeating: "a", count: 43)])
            #expect(try await auth.send(.post, "/recover", json: halfChallenge).code == "validation_failed")
            let shortChallenge = json(["email": Self.maria, "code_challenge": "abc", "code_challenge_method": "s256"])
            #expect(try await auth.send(.post, "/recover", json: shortChallenge).code == "validation_failed")
            let noVerifier = try await auth.send(.post, "/token?grant_type=pkce", json: json(["auth_code": "x"]))
            #expect(noVerifier.code == "validation_failed")
            let unknownCode = try await auth.send(
                .post, "/token?grant_type=pkce", json: json(["auth_code": "x", "code_verifier": String(repeating: "v", count: 43)]))
            #expect(unknownCode.status == .notFound)
            #expect(unknownCode.code == "flow_state_not_found")
            let noCreate = try await auth.send(.post, "/otp", json: #"{"email":"stranger@example.com","create_user":false}"#)
            #expect(noCreate.code == "otp_disabled")
            let count = try await auth.query("SELECT count(*)::int FROM auth.users WHERE email = 'stranger@example.com'")
            #expect(try count[0].decode(Int.self, at: 0) == 0)
        }
    }

    @Test func redirectGlobs() {
        #expect(RedirectPolicy.matches("https://a.app.example/x/y", pattern: "https://*.app.example/**"))
        #expect(!RedirectPolicy.matches("https://a.b.app.example/x", pattern: "https://*.app.example/**"))
        #expect(!RedirectPolicy.matches("https://evil.example/?https://a.app.example/", pattern: "https://*.app.example/**"))
        #expect(RedirectPolicy.matches("http://localhost:3000/cb", pattern: "http://localhost:3000/cb"))
        #expect(!RedirectPolicy.matches("http://localhost:3000/cbx", pattern: "http://localhost:3000/cb"))
    }
}

@Suite("PKCE challenges (no database)")
struct PKCEChallengeTests {
    @Test func s256AndPlainChallengesMatchOnlyTheirVerifier() throws {
        let verifier = "compass-pkce-verifier-0123456789-abcdefghijk"
        let s256 = try #require(try PKCEChallenge.parse(challenge: "i_dxhDKugr5P_uevGcmz7wvlSLLEWHlRYXrP-58lBmA", method: "S256"))
        #expect(s256.method == .s256)
        #expect(s256.isSatisfied(by: verifier))
        #expect(!s256.isSatisfied(by: String(verifier.dropLast())))
        let plain = try #require(try PKCEChallenge.parse(challenge: verifier, method: "plain"))
        #expect(plain.isSatisfied(by: verifier))
        #expect(!plain.isSatisfied(by: verifier + "x"))
        #expect(try PKCEChallenge.parse(challenge: nil, method: nil) == nil)
        #expect(throws: AuthError.self) { try PKCEChallenge.parse(challenge: verifier, method: "md5") }
        #expect(throws: AuthError.self) { try PKCEChallenge.parse(challenge: "short", method: "plain") }
        #expect(throws: AuthError.self) { try PKCEChallenge.parse(challenge: String(repeating: "é", count: 43), method: "plain") }
    }
}
