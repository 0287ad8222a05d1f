import Foundation
import Testing

@testable import CompassTokens

@Suite("Access token time claims: exp, nbf, iat, skew and odd values")
struct TokenLifetimeTests {
    typealias F = TokenFixtures
    static let notValidYet = AccessTokenError.missingClaims(.notValidYet)
    static let issuedInFuture = AccessTokenError.missingClaims(.issuedInFuture)

    /// The refusal for `token` at ``TokenFixtures/now``, or nil when it is accepted.
    static func refusal(_ token: String) async throws -> AccessTokenError? {
        let verifier = try await F.verifier()
        do throws(AccessTokenError) {
            _ = try await verifier.verify(token, now: F.now)
            return nil
        } catch {
            return error
        }
    }

    @Test func expiryIsStrict() async throws {
        #expect(try await Self.refusal(F.token(exp: "\(F.nowSeconds + 1)")) == nil)
        #expect(try await Self.refusal(F.token(exp: "\(F.nowSeconds)")) == .expired(secondsAgo: 0))
        #expect(try await Self.refusal(F.token(exp: "\(F.nowSeconds - 29)")) == .expired(secondsAgo: 29))
        #expect(try await Self.refusal(F.token(exp: "\(F.nowSeconds - 100)")) == .expired(secondsAgo: 100))
        #expect(AccessTokenError.expired(secondsAgo: 100).reason == "InvalidJWTToken: Token has expired 100 seconds ago")
    }

    @Test func issuerTokensExpire() async throws {
        let issuer = try await AccessTokenIssuer(secret: F.secret)
        let token = try await issuer.token(role: .authenticated, subject: "x", lifetime: 10, now: F.now.addingTimeInterval(-100))
        #expect(try await Self.refusal(token) == .expired(secondsAgo: 90))
    }

    @Test func notBeforeAllowsThirtySecondsOfSkew() async throws {
        #expect(try await Self.refusal(F.token(#""nbf":\#(F.nowSeconds - 3600)"#)) == nil)
        #expect(try await Self.refusal(F.token(#""nbf":\#(F.nowSeconds + 29)"#)) == nil)
        #expect(try await Self.refusal(F.token(#""nbf":\#(F.nowSeconds + 30)"#)) == nil)
        #expect(try await Self.refusal(F.token(#""nbf":\#(F.nowSeconds + 31)"#)) == Self.notValidYet)
        #expect(try await Self.refusal(F.token(#""nbf":\#(F.nowSeconds).5"#)) == nil)
        #expect(Self.notValidYet.reason == "InvalidJWTToken: Token is not valid yet")
    }

    @Test func issuedAtAllowsThirtySecondsOfSkew() async throws {
        #expect(try await Self.refusal(F.token(#""iat":\#(F.nowSeconds - 3600)"#)) == nil)
        #expect(try await Self.refusal(F.token(#""iat":\#(F.nowSeconds + 29)"#)) == nil)
        #expect(try await Self.refusal(F.token(#""iat":\#(F.nowSeconds + 31)"#)) == Self.issuedInFuture)
        #expect(Self.issuedInFuture.reason == "InvalidJWTToken: Token was issued in the future")
    }

    @Test func expiryIsCheckedFirst() async throws {
        let token = F.token(exp: "\(F.nowSeconds - 5)", #""nbf":\#(F.nowSeconds + 60)"#, #""iat":\#(F.nowSeconds + 60)"#)
        #expect(try await Self.refusal(token) == .expired(secondsAgo: 5))
        let both = F.token(#""nbf":\#(F.nowSeconds + 60)"#, #""iat":\#(F.nowSeconds + 60)"#)
        #expect(try await Self.refusal(both) == Self.notValidYet)
    }

    @Test(arguments: [#""soon""#, #""1800000000""#, "true", "false", "{}", #"{"$date":1}"#, "[]", "[1800000000]"])
    func nonNumericTimeClaimsAreRefusedByName(value: String) async throws {
        #expect(try await Self.refusal(F.token(exp: value)) == .missingClaims(.notANumber(claim: "exp")))
        #expect(try await Self.refusal(F.token(#""nbf":\#(value)"#)) == .missingClaims(.notANumber(claim: "nbf")))
        #expect(try await Self.refusal(F.token(#""iat":\#(value)"#)) == .missingClaims(.notANumber(claim: "iat")))
    }

    @Test func notANumberReasonNamesTheClaim() {
        #expect(AccessTokenError.missingClaims(.notANumber(claim: "nbf")).reason == "InvalidJWTToken: Claim 'nbf' is not a number")
    }

    @Test func nullTimeClaimsCountAsAbsent() async throws {
        #expect(try await Self.refusal(F.token(#""nbf":null"#, #""iat":null"#)) == nil)
    }

    @Test func extremeExpiriesCannotTrap() async throws {
        #expect(try await Self.refusal(F.token(exp: "-1e300")) == .expired(secondsAgo: .max))
        #expect(try await Self.refusal(F.token(exp: "-1.7976931348623157e308")) == .expired(secondsAgo: .max))
        #expect(try await Self.refusal(F.token(exp: "-9223372036854775809")) == .expired(secondsAgo: .max))
        #expect(try await Self.refusal(F.token(exp: "-1")) == .expired(secondsAgo: F.nowSeconds + 1))
        #expect(try await Self.refusal(F.token(exp: "0")) == .expired(secondsAgo: F.nowSeconds))
        #expect(try await Self.refusal(F.token(exp: "1e-300")) == .expired(secondsAgo: F.nowSeconds))
        let huge = try await F.verifier().verify(F.token(exp: "1e300"), now: F.now)
        #expect(huge.expiresAt == Date(timeIntervalSince1970: 1e300))
        #expect(try await Self.refusal(F.token(exp: "9223372036854775808")) == nil)
        #expect(try await Self.refusal(F.token(exp: "123456789012345678901234567890")) == nil)
    }

    @Test func extremeDatesCannotTrap() async throws {
        #expect(try await Self.refusal(F.token(#""nbf":1e300"#)) == Self.notValidYet)
        #expect(try await Self.refusal(F.token(#""iat":1e300"#)) == Self.issuedInFuture)
        #expect(try await Self.refusal(F.token(#""nbf":-1e300"#, #""iat":-1e300"#)) == nil)
        #expect(try await Self.refusal(F.token(#""nbf":-9223372036854775809"#)) == nil)
    }

    /// Beyond `Double`'s range: the JSON reader either refuses the payload or yields a
    /// non-finite number; either way a refusal, never a trap.
    @Test(arguments: ["1e400", "-1e400", "1e999999999"])
    func outOfRangeNumbersAreRefused(value: String) async throws {
        let expiry = try await Self.refusal(F.token(exp: value))
        #expect(expiry == .missingClaims(.notANumber(claim: "exp")) || expiry == .malformed)
        let notBefore = try await Self.refusal(F.token(#""nbf":\#(value)"#))
        #expect(notBefore == .missingClaims(.notANumber(claim: "nbf")) || notBefore == .malformed)
    }

    @Test func wholeSecondsClamp() {
        #expect(TokenLifetime.wholeSeconds(1e300) == .max)
        #expect(TokenLifetime.wholeSeconds(-1e300) == .min)
        #expect(TokenLifetime.wholeSeconds(.infinity) == .max)
        #expect(TokenLifetime.wholeSeconds(-.infinity) == .min)
        #expect(TokenLifetime.wholeSeconds(.nan) == 0)
        #expect(TokenLifetime.wholeSeconds(Double(Int.max)) == .max)
        #expect(TokenLifetime.wholeSeconds(Double(Int.min)) == .min)
        #expect(TokenLifetime.wholeSeconds(41.9) == 41)
    }

    @Test func timeClaimsAreReadWithoutASignature() throws {
        let lifetime = try TokenLifetime(exp: .number(10), nbf: nil, iat: .number(5))
        #expect(throws: AccessTokenError.expired(secondsAgo: 0)) { try lifetime.check(at: Date(timeIntervalSince1970: 10)) }
        #expect(throws: AccessTokenError.missingClaims(.notANumber(claim: "nbf"))) {
            try TokenLifetime(exp: .number(10), nbf: .string("soon"), iat: nil)
        }
        #expect(throws: AccessTokenError.missingClaims(.notANumber(claim: "iat"))) {
            try TokenLifetime(exp: .number(10), nbf: nil, iat: .other)
        }
    }
}
