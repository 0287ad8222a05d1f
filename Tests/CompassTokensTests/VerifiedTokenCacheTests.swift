import Foundation
import Testing

@testable import CompassTokens

/// A token verified once is served from memory, but every use still meets the clock and the
/// caller's expiry rule exactly as a first verification would.
@Suite("Verified tokens are remembered, never past their time")
struct VerifiedTokenCacheTests {
    typealias F = TokenFixtures

    @Test func aRememberedTokenStillExpiresAndIsThenForgotten() async throws {
        let verifier = try await F.verifier()
        let token = F.token()  // exp = now + 1 h
        _ = try await verifier.verify(token, now: F.now)
        #expect(verifier.cache.count == 1)
        #expect(try await verifier.verify(token, now: F.now.addingTimeInterval(3599)).role == .authenticated)
        await #expect(throws: AccessTokenError.expired(secondsAgo: 0)) {
            try await verifier.verify(token, now: F.now.addingTimeInterval(3600))
        }
        #expect(verifier.cache.count == 0)
    }

    @Test func notBeforeAndIssuedAtAreCheckedOnEveryUse() async throws {
        let verifier = try await F.verifier()
        let token = F.token(#""nbf":\#(F.nowSeconds)"#, #""iat":\#(F.nowSeconds)"#)
        _ = try await verifier.verify(token, now: F.now)
        // The same bytes presented by a clock 31 s behind the token's nbf: refused as the first time would be.
        await #expect(throws: AccessTokenError.missingClaims(.notValidYet)) {
            try await verifier.verify(token, now: F.now.addingTimeInterval(-31))
        }
    }

    @Test func aTokenWithoutExpiryRememberedForRESTIsStillRefusedWhereExpiryIsRequired() async throws {
        let verifier = try await F.verifier()
        let token = F.token(exp: nil)
        #expect(try await verifier.verify(token, now: F.now, expiry: .optional).expiresAt == nil)
        await #expect(throws: AccessTokenError.missingClaims(.roleOrExpiryMissing)) {
            try await verifier.verify(token, now: F.now, expiry: .required)
        }
    }

    @Test func refusedTokensAreNotRememberedAndAnAlteredSignatureIsCheckedAfresh() async throws {
        let verifier = try await F.verifier()
        let token = F.token()
        _ = try await verifier.verify(token, now: F.now)
        var altered = token
        altered.removeLast()
        altered.append(token.last == "A" ? "B" : "A")
        await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(altered, now: F.now) }
        await #expect(throws: AccessTokenError.self) { try await verifier.verify(F.token(role: #""postgres""#), now: F.now) }
        await #expect(throws: AccessTokenError.self) { try await verifier.verify(F.signed("{}", secret: "another-secret-with-32-characters-or-more"), now: F.now) }
        #expect(verifier.cache.count == 1)
    }

    @Test func theCacheIsBoundedExpiredEntriesGoFirst() async throws {
        let verifier = try await F.verifier()
        let claims = try await verifier.verify(F.token(), now: F.now)
        let cache = VerifiedTokenCache()
        let expired = try TokenLifetime(exp: .number(F.now.timeIntervalSince1970 - 1), nbf: nil, iat: nil)
        let live = try TokenLifetime(exp: .number(F.now.timeIntervalSince1970 + 60), nbf: nil, iat: nil)
        for index in 0..<VerifiedTokenCache.capacity {
            cache.insert(.init(claims: claims, lifetime: index < 10 ? live : expired), for: "token \(index)", now: F.now.timeIntervalSince1970)
        }
        #expect(cache.count == VerifiedTokenCache.capacity)
        cache.insert(.init(claims: claims, lifetime: live), for: "one more", now: F.now.timeIntervalSince1970)
        #expect(cache.count == 11)  // the ten live ones and the new one
        #expect(cache.entry(for: "token 3") != nil)
        #expect(cache.entry(for: "token 10") == nil)
    }
}
