import Foundation
import Testing

@testable import CompassTokens

@Suite("Access token verification: shape, signature, role, session")
struct AccessTokenVerifierTests {
    typealias F = TokenFixtures

    @Test func issuedTokensRoundTrip() async throws {
        let issuer = try await AccessTokenIssuer(secret: F.secret)
        let token = try await issuer.token(
            role: .authenticated, subject: "a1000000-0000-4000-8000-000000000003", lifetime: 60, now: F.now)
        let claims = try await F.verifier().verify(token, now: F.now)
        #expect(claims.role == .authenticated)
        #expect(claims.subject == "a1000000-0000-4000-8000-000000000003")
        #expect(claims.expiresAt == F.now.addingTimeInterval(60))
        #expect(claims.sessionID == nil)
        #expect(claims.claimsJSON.contains(#""sub":"a1000000-0000-4000-8000-000000000003""#))
        // The issuer writes `iat` = now: a token is usable the moment it is made.
        #expect(claims.claimsJSON.contains(#""iat":\#(F.nowSeconds)"#))
    }

    @Test func apiKeysVerify() async throws {
        let keys = try APIKeys(secret: F.secret)
        let verifier = try await F.verifier()
        #expect(try await verifier.verify(keys.anon, now: F.now).role == .anon)
        #expect(try await verifier.verify(keys.serviceRole, now: F.now).role == .serviceRole)
    }

    @Test func sessionIDIsDecodedOnce() async throws {
        let verifier = try await F.verifier()
        let id = UUID(uuidString: "0B6F2C1E-3D4A-4F5B-8C7D-9E0A1B2C3D4E")!
        for text in ["0b6f2c1e-3d4a-4f5b-8c7d-9e0a1b2c3d4e", "0B6F2C1E-3D4A-4F5B-8C7D-9E0A1B2C3D4E"] {
            let claims = try await verifier.verify(F.token(#""session_id":"\#(text)""#), now: F.now)
            #expect(claims.sessionID == id)
        }
        // Not a UUID: no session, but the token itself is fine (REST and Realtime ignore it).
        for value in [#""nope""#, "12", "null", "{}", #"["0b6f2c1e-3d4a-4f5b-8c7d-9e0a1b2c3d4e"]"#] {
            let claims = try await verifier.verify(F.token(#""session_id":\#(value)"#), now: F.now)
            #expect(claims.sessionID == nil, "session_id \(value)")
        }
    }

    @Test func subjectMustBeAString() async throws {
        let claims = try await F.verifier().verify(F.token(#""sub":42"#), now: F.now)
        #expect(claims.subject == nil)
    }

    @Test func wrongSecretIsASignatureError() async throws {
        let token = F.signed(#"{"role":"anon","exp":\#(F.nowSeconds + 60)}"#, secret: "another secret, also long enough for HS256")
        await #expect(throws: AccessTokenError.badSignature) { try await F.verifier().verify(token, now: F.now) }
        #expect(AccessTokenError.badSignature.reason == "JwtSignatureError: Failed to validate JWT signature")
    }

    @Test func tamperedPayloadIsASignatureError() async throws {
        let parts = F.token().split(separator: ".")
        let forged = parts[0] + "." + HS256Text.base64URL(Data(#"{"role":"service_role","exp":9999999999}"#.utf8)) + "." + parts[2]
        await #expect(throws: AccessTokenError.badSignature) { try await F.verifier().verify(String(forged), now: F.now) }
    }

    @Test func otherAlgorithmsAreRefused() async throws {
        let verifier = try await F.verifier()
        let claims = #"{"role":"service_role","exp":9999999999}"#
        for header in [#"{"alg":"none","typ":"JWT"}"#, #"{"alg":"HS512"}"#, #"{"alg":["HS256"]}"#, #"{"typ":"JWT"}"#] {
            let token = F.unsigned(header: header, claimsJSON: claims)
            await #expect(throws: AccessTokenError.badSignature, "\(header)") { try await verifier.verify(token, now: F.now) }
        }
        let none = F.unsigned(header: #"{"alg":"none"}"#, claimsJSON: claims).dropLast(".c2lnbmF0dXJl".count) + "."
        await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(String(none), now: F.now) }
    }

    @Test func garbageIsMalformed() async throws {
        let verifier = try await F.verifier()
        let arrayPayload = F.signed(#"[{"role":"anon","exp":9999999999}]"#)
        let textPayload = F.signed("not json")
        for token in ["", "abc", "a.b.c", "a.b.c.d", "sb_publishable_123", "..", arrayPayload, textPayload] {
            await #expect(throws: AccessTokenError.malformed, "\(token)") { try await verifier.verify(token, now: F.now) }
        }
        #expect(AccessTokenError.malformed.reason == "MalformedJWT: The token provided is not a valid JWT")
    }

    @Test func roleIsRequiredEverywhere() async throws {
        let verifier = try await F.verifier()
        let missing = AccessTokenError.missingClaims(.roleOrExpiryMissing)
        for token in [F.token(role: nil), F.token(role: "7"), F.token(role: "null")] {
            for rule in [ExpiryRule.optional, .required] {
                await #expect(throws: missing) { try await verifier.verify(token, now: F.now, expiry: rule) }
            }
        }
    }

    /// PostgREST's `db-anon-role`: REST reads a token without `role` as anon, `"role":"anon"` added
    /// to its claims; an unusable role is still refused, and the token is not remembered as anon.
    @Test func aTokenWithoutRoleIsAnonWhereAsked() async throws {
        let verifier = try await F.verifier()
        let roleless = F.token(role: nil, #""sub":"s-1","id":3"#)
        let claims = try await verifier.verify(roleless, now: F.now, missingRole: .anonymous)
        #expect(claims.role == .anon)
        #expect(claims.subject == "s-1")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(claims.claimsJSON.utf8)) as? [String: Any])
        #expect(json["role"] as? String == "anon")
        #expect(json["id"] as? Int == 3)
        #expect(json["sub"] as? String == "s-1")
        await #expect(throws: AccessTokenError.missingClaims(.roleOrExpiryMissing)) { try await verifier.verify(roleless, now: F.now) }
        for unusable in [F.token(role: "7"), F.token(role: "null")] {
            await #expect(throws: AccessTokenError.missingClaims(.roleOrExpiryMissing)) {
                try await verifier.verify(unusable, now: F.now, missingRole: .anonymous)
            }
        }
        // An empty claim set gets the role alone; a bad signature is refused as ever.
        let empty = AccessClaims.anonymous(claimsJSON: "{ }", subject: nil, expiresAt: nil, sessionID: nil)
        #expect(empty.claimsJSON == #"{"role":"anon"}"#)
        let forged = F.signed(#"{"sub":"x"}"#, secret: "another secret, also long enough for HS256")
        await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(forged, now: F.now, missingRole: .anonymous) }
    }

    /// GoTrue and PostgREST accept a token without `exp` (the clients' suites sign admin tokens
    /// so); Realtime requires it, with its own reason.
    @Test func expiryIsOptionalExceptWhereRequired() async throws {
        let verifier = try await F.verifier()
        let claims = try await verifier.verify(F.token(role: #""service_role""#, exp: nil), now: F.now)
        #expect(claims.role == .serviceRole)
        #expect(claims.expiresAt == nil)
        let missing = AccessTokenError.missingClaims(.roleOrExpiryMissing)
        await #expect(throws: missing) { try await verifier.verify(F.token(exp: nil), now: F.now, expiry: .required) }
        #expect(missing.reason == "InvalidJWTToken: Fields `role` and `exp` are required in JWT")
        // Present but null is an unusable expiry under either rule, never "no expiry".
        for rule in [ExpiryRule.optional, .required] {
            await #expect(throws: AccessTokenError.missingClaims(.notANumber(claim: "exp"))) {
                try await verifier.verify(F.token(exp: "null"), now: F.now, expiry: rule)
            }
        }
        // Without `exp`, `nbf` and `iat` are still checked.
        await #expect(throws: AccessTokenError.missingClaims(.notValidYet)) {
            try await verifier.verify(F.token(exp: nil, #""nbf":\#(F.nowSeconds + 3600)"#), now: F.now)
        }
    }

    @Test func unknownRolesAreRefused() async throws {
        let token = F.token(role: #""postgres""#)
        await #expect(throws: AccessTokenError.unknownRole("postgres")) { try await F.verifier().verify(token, now: F.now) }
        let long = AccessTokenError.unknownRole(String(repeating: "r", count: 100))
        #expect(long.reason == "InvalidJWTToken: Role '\(String(repeating: "r", count: 40))' is not one of anon, authenticated, service_role")
    }

    /// REST accepts another role (the database checks it); the same token stays refused by
    /// every other surface afterwards, as it is never cached.
    @Test func otherRolesAreAcceptedOnlyWhereAskedAndNeverCached() async throws {
        let verifier = try await F.verifier()
        let token = F.token(role: #""reporting""#)
        let claims = try await verifier.verify(token, now: F.now, otherRoles: .accepted)
        #expect(claims.databaseRole == "reporting")
        #expect(claims.namesOtherRole)
        #expect(claims.role == .authenticated)
        await #expect(throws: AccessTokenError.unknownRole("reporting")) { try await verifier.verify(token, now: F.now) }
        // `none` would make the request the login role.
        await #expect(throws: AccessTokenError.unknownRole("none")) {
            try await verifier.verify(F.token(role: #""none""#), now: F.now, otherRoles: .accepted)
        }
        let standard = try await verifier.verify(F.token(role: #""anon""#), now: F.now, otherRoles: .accepted)
        #expect(standard.databaseRole == "anon" && !standard.namesOtherRole)
    }

    @Test func shortSecretsAreRefused() async {
        await #expect(throws: JWTSecretError.self) { try await AccessTokenVerifier(secret: "short") }
        await #expect(throws: JWTSecretError.self) { try await AccessTokenIssuer(secret: "short") }
    }
}
