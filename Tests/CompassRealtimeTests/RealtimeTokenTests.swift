import CompassTokens
import Foundation
import Testing

@testable import CompassRealtime

/// The verifier's own cases live in CompassTokensTests; this checks what Realtime reads from it.
@Suite("JWT claims as Realtime reads them (no database)")
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
        #expect(claims.expiresAt.map { $0 > Date() } == true)
    }
}
