import CompassTokens
import Foundation
import JWTKit
import Testing

@testable import CompassRealtime

@Suite("JWT verification (no database)")
struct RealtimeTokenTests {
    static let secret = "test-secret-with-at-least-32-characters!"

    @Test func issuedTokensVerifyWithTheirClaims() async throws {
        let issuer = try await AccessTokenIssuer(secret: Self.secret)
        let verifier = try await AccessTokenVerifier(secret: Self.secret)
        let token = try await issuer.token(role: .authenticated, subject: "a1000000-0000-4000-8000-000000000003", lifetime: 60)
        let claims = try await verifier.verify(token)
        #expect(claims.role == .authenticated)
        #expect(claims.subject == "a1000000-0000-4000-8000-000000000003")
        let json = try RealtimeJSON(parsing: claims.claimsJSON)
        #expect(json["sub"] == "a1000000-0000-4000-8000-000000000003")
        #expect(json["role"] == "authenticated")
        #expect(claims.expiresAt > Date())
    }

    @Test func wrongSecretIsASignatureError() async throws {
        let token = try await AccessTokenIssuer(secret: "another secret, also long enough for HS256").token(role: .anon, subject: nil, lifetime: 60)
        let verifier = try await AccessTokenVerifier(secret: Self.secret)
        await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(token) }
        #expect(AccessTokenError.badSignature.reason.hasPrefix("JwtSignatureError: "))
    }

    @Test func expiredTokensAreRefused() async throws {
        let issuer = try await AccessTokenIssuer(secret: Self.secret)
        let verifier = try await AccessTokenVerifier(secret: Self.secret)
        let token = try await issuer.token(role: .authenticated, subject: "x", lifetime: 10, now: Date().addingTimeInterval(-100))
        let error = await #expect(throws: AccessTokenError.self) { try await verifier.verify(token) }
        guard case .expired(let seconds)? = error else {
            Issue.record("expected expiry, got \(String(describing: error))")
            return
        }
        #expect(seconds >= 89)
        #expect(error?.reason.hasPrefix("InvalidJWTToken: Token has expired") == true)
    }

    @Test func shortSecretsAreRefused() async {
        await #expect(throws: JWTSecretError.self) { try await AccessTokenVerifier(secret: "short") }
    }

    @Test func garbageIsMalformed() async throws {
        let verifier = try await AccessTokenVerifier(secret: Self.secret)
        for token in ["", "abc", "a.b.c", "sb_publishable_123"] {
            await #expect(throws: AccessTokenError.malformed) { try await verifier.verify(token) }
        }
    }

    @Test func missingRoleOrUnknownRoleIsRefused() async throws {
        let verifier = try await AccessTokenVerifier(secret: Self.secret)
        let later = Int(Date().timeIntervalSince1970) + 60
        let noRole = try await Self.sign(role: nil, exp: later, sub: "x")
        await #expect(throws: AccessTokenError.missingClaims) { try await verifier.verify(noRole) }
        let admin = try await Self.sign(role: "postgres", exp: later)
        await #expect(throws: AccessTokenError.unknownRole("postgres")) { try await verifier.verify(admin) }
        let noExp = try await Self.sign(role: "anon", exp: nil)
        await #expect(throws: AccessTokenError.missingClaims) { try await verifier.verify(noExp) }
    }

    @Test func algNoneIsRefused() async throws {
        let verifier = try await AccessTokenVerifier(secret: Self.secret)
        let header = Self.base64URL(#"{"alg":"none","typ":"JWT"}"#)
        let payload = Self.base64URL(#"{"role":"service_role","exp":9999999999}"#)
        await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify("\(header).\(payload).") }
    }

    /// Signs claims the issuer would never write (missing or foreign roles).
    static func sign(role: String?, exp: Int?, sub: String? = nil) async throws -> String {
        struct Claims: JWTPayload {
            var role: String?
            var exp: Int?
            var sub: String?
            func verify(using algorithm: some JWTAlgorithm) async throws {}
        }
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return try await keys.sign(Claims(role: role, exp: exp, sub: sub))
    }

    static func base64URL(_ text: String) -> String { base64URL(Data(text.utf8)) }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
