import Foundation
import Testing

@testable import CompassTokens

@Suite("Asymmetric signing keys: ES256/RS256 by kid, rotation, algorithm confusion")
struct SigningKeyVerifierTests {
    typealias F = TokenFixtures
    typealias K = SigningKeyFixtures

    @Test func es256TokensCarryTheirKidAndVerify() async throws {
        let keys = try await K.set(K.ecCurrent)
        let token = try await K.token(signedBy: keys)
        let header = try K.header(of: token)
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "ec-2026-11")
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: keys)
        let claims = try await verifier.verify(token, now: F.now)
        #expect(claims.role == .authenticated)
        #expect(claims.subject == "a1000000-0000-4000-8000-000000000003")
    }

    @Test func rs256TokensVerify() async throws {
        let keys = try await K.set(K.rsa)
        let token = try await K.token(signedBy: keys, role: .serviceRole)
        #expect(try K.header(of: token)["alg"] as? String == "RS256")
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: keys)
        #expect(try await verifier.verify(token, now: F.now).role == .serviceRole)
    }

    @Test func theLegacySecretStillVerifiesBesideTheKeys() async throws {
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: try await K.set(K.ecCurrent, K.rsa))
        #expect(try await verifier.verify(F.token(), now: F.now).role == .authenticated)
        let keys = try APIKeys(secret: F.secret)
        #expect(try await verifier.verify(keys.anon, now: F.now).role == .anon)
    }

    @Test func theKidPicksTheKeyAndARotatedOutKeyStillVerifies() async throws {
        let before = try await K.token(signedBy: try await K.set(K.ecPrevious))
        let rsaToken = try await K.token(signedBy: try await K.set(K.rsa))
        let rotated = try await K.set(K.ecCurrent, K.ecPrevious, K.rsa)
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: rotated)
        #expect(try await verifier.verify(before, now: F.now).role == .authenticated)
        #expect(try await verifier.verify(rsaToken, now: F.now).role == .authenticated)
        let after = try await K.token(signedBy: rotated)
        #expect(try K.header(of: after)["kid"] as? String == "ec-2026-11")
        #expect(try await verifier.verify(after, now: F.now).role == .authenticated)
    }

    @Test func anUnknownOrMissingKidIsRefusedByName() async throws {
        let retired = try await K.token(signedBy: try await K.set(K.ecPrevious))
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: try await K.set(K.ecCurrent))
        await #expect(throws: AccessTokenError.unknownKey) { try await verifier.verify(retired, now: F.now) }
        #expect(AccessTokenError.unknownKey.plainReason == "invalid JWT: no signing key matches the token's kid")
        // Without the kid the key cannot be chosen: JWTKit's fallback to a default key is never used.
        let parts = retired.split(separator: ".")
        let noKid = HS256Text.base64URL(Data(#"{"alg":"ES256","typ":"JWT"}"#.utf8)) + "." + parts[1] + "." + parts[2]
        await #expect(throws: AccessTokenError.unknownKey) { try await verifier.verify(noKid, now: F.now) }
        // A worker with no signing key refuses every asymmetric token the same way.
        let legacy = try await F.verifier()
        await #expect(throws: AccessTokenError.unknownKey) { try await legacy.verify(retired, now: F.now) }
    }

    @Test func aForeignSignatureUnderAKnownKidIsBad() async throws {
        let foreign = try await K.token(signedBy: try await K.set(try K.edited(K.ecPrevious, "kid", "ec-2026-11")))
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: try await K.set(K.ecCurrent))
        await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(foreign, now: F.now) }
    }

    @Test func algorithmConfusionIsRefused() async throws {
        let keys = try await K.set(K.ecCurrent, K.rsa)
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: keys)
        let claims = #"{"role":"service_role","exp":9999999999}"#
        // HS256 "signed" with the public key's text, naming the key: the secret checks it, and refuses it.
        for publicText in [keys.publishedJSON, try Self.publicKeyText(keys, kid: "ec-2026-11"), try Self.publicKeyText(keys, kid: "rsa-2026-11")] {
            for header in [#"{"alg":"HS256","kid":"ec-2026-11"}"#, #"{"alg":"HS256","kid":"rsa-2026-11"}"#, #"{"alg":"HS256"}"#] {
                let forged = HS256Text.token(header: header, claimsJSON: claims, secret: publicText)
                await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(forged, now: F.now) }
            }
        }
        // An ES256 signature presented as RS256 (or the RSA key's kid) does not switch keys.
        let es = try await K.token(signedBy: keys)
        let parts = es.split(separator: ".")
        for header in [#"{"alg":"RS256","kid":"ec-2026-11"}"#, #"{"alg":"ES256","kid":"rsa-2026-11"}"#] {
            let swapped = HS256Text.base64URL(Data(header.utf8)) + "." + parts[1] + "." + parts[2]
            await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(swapped, now: F.now) }
        }
        // `alg: none`, with or without a known kid, signed or not.
        for header in [#"{"alg":"none","kid":"ec-2026-11"}"#, #"{"alg":"none"}"#, #"{"alg":"ES384","kid":"ec-2026-11"}"#] {
            let unsigned = F.unsigned(header: header, claimsJSON: claims)
            await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(unsigned, now: F.now) }
            let empty = String(unsigned.dropLast(".c2lnbmF0dXJl".count)) + "."
            await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(empty, now: F.now) }
        }
    }

    @Test func theCacheKeepsTheWholeTokenSoAnAlteredSignatureIsVerifiedAgain() async throws {
        let keys = try await K.set(K.ecCurrent)
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: keys)
        let token = try await K.token(signedBy: keys)
        _ = try await verifier.verify(token, now: F.now)
        #expect(verifier.cache.count == 1)
        let altered = String(token.dropLast(2)) + (token.hasSuffix("AA") ? "BB" : "AA")
        await #expect(throws: AccessTokenError.badSignature) { try await verifier.verify(altered, now: F.now) }
        #expect(try await verifier.verify(token, now: F.now).role == .authenticated)
        // A cached token still expires.
        await #expect(throws: AccessTokenError.expired(secondsAgo: 1)) {
            try await verifier.verify(token, now: F.now.addingTimeInterval(601))
        }
    }

    @Test func thePublishedSetHoldsPublicHalvesOnly() async throws {
        let keys = try await K.set(K.ecCurrent, K.rsa)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(keys.publishedJSON.utf8)) as? [String: Any])
        let published = try #require(object["keys"] as? [[String: Any]])
        #expect(published.count == 2)
        let ec = try #require(published.first)
        #expect(ec["kty"] as? String == "EC")
        #expect(ec["crv"] as? String == "P-256")
        #expect(ec["alg"] as? String == "ES256")
        #expect(ec["kid"] as? String == "ec-2026-11")
        #expect(ec["use"] as? String == "sig")
        #expect(ec["key_ops"] as? [String] == ["verify"])
        #expect(ec["x"] != nil && ec["y"] != nil)
        let rsa = try #require(published.last)
        #expect(rsa["kty"] as? String == "RSA" && rsa["alg"] as? String == "RS256")
        #expect(rsa["n"] != nil && rsa["e"] as? String == "AQAB")
        for key in published {
            for secret in ["d", "p", "q", "dp", "dq", "qi"] { #expect(key[secret] == nil, "\(secret) published") }
        }
    }

    @Test func aBadSettingIsRefusedWithItsReason() async throws {
        func problem(_ text: String) -> String? {
            do { try SigningKeySet.check(text); return nil } catch { return error.problem }
        }
        #expect(problem("not json")?.contains("is not a JSON Web Key Set") == true)
        #expect(problem(#"{"keys":[]}"#) == "holds no key")
        #expect(problem(K.setText([try K.edited(K.ecCurrent, "kid", nil)])) == "key 1 has no kid")
        #expect(problem(K.setText([try K.edited(K.ecCurrent, "d", nil)]))?.contains("needs its private part (d)") == true)
        #expect(problem(K.setText([K.ecCurrent, try K.edited(K.ecPrevious, "d", nil)])) == nil)
        #expect(problem(K.setText([K.ecCurrent, try K.edited(K.rsa, "kid", "ec-2026-11")])) == #"names kid "ec-2026-11" twice"#)
        #expect(problem(K.setText([#"{"kty":"oct","kid":"h","k":"c2VjcmV0"}"#]))?.contains("neither an EC P-256 key") == true)
        #expect(problem(K.setText([try K.edited(K.ecCurrent, "crv", "P-384")]))?.contains("neither an EC P-256 key") == true)
        #expect(problem(K.setText([try K.edited(K.rsa, "alg", "PS256")]))?.contains("neither an EC P-256 key") == true)
        // A private part from another key: the pair check stops the worker, the reason names no key material.
        let mismatched = try K.edited(K.ecCurrent, "d", try Self.field(K.ecPrevious, "d"))
        await #expect {
            try await SigningKeySet(jwksJSON: K.setText([mismatched]))
        } throws: { error in
            let text = "\(error)"
            return text.contains("does not match") && !text.contains(try! Self.field(K.ecPrevious, "d"))
        }
    }

    @Test func aGeneratedKeySignsAndVerifies() async throws {
        let generated = SigningKey.newES256JWK(kid: "fresh")
        let keys = try await K.set(generated, K.ecCurrent)
        let token = try await K.token(signedBy: keys)
        #expect(try K.header(of: token)["kid"] as? String == "fresh")
        let verifier = try await AccessTokenVerifier(secret: F.secret, signingKeys: keys)
        #expect(try await verifier.verify(token, now: F.now).role == .authenticated)
        #expect(SigningKey.newES256JWK() != SigningKey.newES256JWK())
    }

    /// One key's published JWK as text (what an attacker would use as an HMAC secret).
    private static func publicKeyText(_ keys: SigningKeySet, kid: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(keys.publishedJSON.utf8)) as? [String: Any])
        let key = try #require((object["keys"] as? [[String: Any]])?.first { $0["kid"] as? String == kid })
        return String(decoding: try JSONSerialization.data(withJSONObject: key), as: UTF8.self)
    }

    private static func field(_ key: String, _ name: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(key.utf8)) as? [String: Any])
        return try #require(object[name] as? String)
    }
}
