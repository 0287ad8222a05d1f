@testable import CompassAuth
import CompassTestSupport
import Foundation
import Testing

/// MFA's limits on guessing, a challenge's lifetime, and where its tables live.
@Suite("/auth/v1 MFA limits", .serialized)
struct MFALimitTests {
    /// Sofia's fresh aal1 session and a new unverified TOTP factor of hers: (access token, factor id, secret).
    static func enroll(_ auth: AuthHarness) async throws -> (access: String, factor: String, secret: [UInt8]) {
        let session = try await auth.signIn(SessionTests.sofia, AuthHarness.demoPassword)
        let access = try #require(session["access_token"])
        let enrolled = try await auth.send(.post, "/factors", bearer: access, json: json(["factor_type": "totp", "friendly_name": "limits"]))
        #expect(enrolled.status == .ok, "\(enrolled.text)")
        let totp = try #require(enrolled.object["totp"] as? [String: Any])
        let text = try #require(totp["secret"] as? String)
        let secret = try #require(Base32.decode(text))
        return (access, try #require(enrolled["id"]), secret)
    }

    static func challenge(_ auth: AuthHarness, _ access: String, _ factor: String) async throws -> String {
        let reply = try await auth.send(.post, "/factors/\(factor)/challenge", bearer: access, json: "{}")
        #expect(reply.status == .ok, "\(reply.text)")
        return try #require(reply["id"])
    }

    /// The payload of a JWT.
    static func claims(of token: String) throws -> [String: Any] {
        var payload = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: payload))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("a challenge takes five wrong codes, then refuses even the right one (429); a new challenge accepts it")
    func wrongCodesPerChallenge() async throws {
        try await AuthHarness.with { auth in
            let (access, factor, secret) = try await Self.enroll(auth)
            let right = TOTP(secret: secret).code(at: auth.clock.now)
            let wrong = right == "000000" ? "111111" : "000000"
            let challenge = try await Self.challenge(auth, access, factor)
            for _ in 0..<5 {
                let reply = try await auth.send(
                    .post, "/factors/\(factor)/verify", bearer: access, json: json(["challenge_id": challenge, "code": wrong]))
                #expect(reply.status == .unprocessableContent)
                #expect(reply.code == "mfa_verification_failed")
            }
            let refused = try await auth.send(
                .post, "/factors/\(factor)/verify", bearer: access, json: json(["challenge_id": challenge, "code": right]))
            #expect(refused.status == .tooManyRequests)
            #expect(refused.code == "over_request_rate_limit")
            let fresh = try await Self.challenge(auth, access, factor)
            let accepted = try await auth.send(
                .post, "/factors/\(factor)/verify", bearer: access, json: json(["challenge_id": fresh, "code": right]))
            #expect(accepted.status == .ok, "\(accepted.text)")
            let token = try #require(accepted["access_token"])
            #expect(try Self.claims(of: token)["aal"] as? String == "aal2")
        }
    }

    @Test("a challenge expires after five minutes; bad ids and bodies get GoTrue's errors")
    func challengeExpiryAndBadInput() async throws {
        try await AuthHarness.with { auth in
            let (access, factor, secret) = try await Self.enroll(auth)
            let challenge = try await Self.challenge(auth, access, factor)
            auth.clock.advance(301)
            let code = TOTP(secret: secret).code(at: auth.clock.now)
            let expired = try await auth.send(
                .post, "/factors/\(factor)/verify", bearer: access, json: json(["challenge_id": challenge, "code": code]))
            #expect(expired.status == .unprocessableContent)
            #expect(expired.code == "mfa_challenge_expired")
            let empty = try await auth.send(.post, "/factors/\(factor)/verify", bearer: access, json: json(["challenge_id": challenge]))
            #expect(empty.status == .badRequest)
            #expect(empty.code == "validation_failed")
            let notMine = try await auth.send(.post, "/factors/\(UUID().uuidString)/challenge", bearer: access, json: "{}")
            #expect(notMine.status == .notFound)
            #expect(notMine.code == "mfa_factor_not_found")
            let badType = try await auth.send(.post, "/factors", bearer: access, json: json(["factor_type": "sms"]))
            #expect(badType.status == .badRequest)
            #expect(badType.code == "validation_failed")
            let anonymous = try await auth.send(.post, "/factors", json: json(["factor_type": "totp"]))
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test("the MFA tables belong to supabase_auth_admin, have RLS on, and the API roles hold no privilege on them")
    func tablesAreClosed() async throws {
        try await AuthHarness.with { auth in
            let rows = try await auth.query("""
                SELECT c.relname::text, pg_get_userbyid(c.relowner)::text, c.relrowsecurity,
                       has_table_privilege('authenticated', c.oid, 'SELECT'), has_table_privilege('anon', c.oid, 'SELECT')
                  FROM pg_class AS c WHERE c.relnamespace = 'auth'::regnamespace
                   AND c.relname IN ('mfa_factors', 'mfa_challenges', 'mfa_amr_claims') ORDER BY 1
                """).decode((String, String, Bool, Bool, Bool).self)
            #expect(rows.map(\.0) == ["mfa_amr_claims", "mfa_challenges", "mfa_factors"])
            for row in rows {
                #expect(row.1 == "supabase_auth_admin")
                #expect(row.2)
                #expect(!row.3 && !row.4)
            }
        }
    }
}
