@testable import CompassAuth
import Foundation
import Testing

/// TOTP against RFC 6238's own test vectors (Appendix B, SHA-1), and base32 against RFC 4648's.
@Suite("TOTP codes (RFC 6238) and base32 secrets (RFC 4648)")
struct TOTPTests {
    /// The RFC's SHA-1 key: the ASCII of "12345678901234567890".
    static let rfcKey = Array("12345678901234567890".utf8)

    @Test(
        "the RFC 6238 SHA-1 vectors, 8 digits",
        arguments: [
            (59, "94287082"), (1_111_111_109, "07081804"), (1_111_111_111, "14050471"),
            (1_234_567_890, "89005924"), (2_000_000_000, "69279037"), (20_000_000_000, "65353130"),
        ])
    func rfcVectors(time: Int, expected: String) {
        let step = TOTP.step(at: Date(timeIntervalSince1970: TimeInterval(time)))
        #expect(TOTP(secret: TOTPTests.rfcKey).code(step: step, digits: 8) == expected)
    }

    @Test("a 6-digit code is the vector's last six digits, and verifies within one step either side only")
    func skewWindow() {
        let totp = TOTP(secret: TOTPTests.rfcKey)
        let time = Date(timeIntervalSince1970: 1_111_111_109)
        #expect(totp.code(at: time) == "081804")
        let step = TOTP.step(at: time)
        for offset in [-30.0, 0, 30] {
            #expect(totp.matchingStep(of: "081804", at: time.addingTimeInterval(offset), after: nil) == step)
        }
        #expect(totp.matchingStep(of: "081804", at: time.addingTimeInterval(-61), after: nil) == nil)
        #expect(totp.matchingStep(of: "081804", at: time.addingTimeInterval(61), after: nil) == nil)
        #expect(totp.matchingStep(of: "081805", at: time, after: nil) == nil)
        #expect(totp.matchingStep(of: "81804", at: time, after: nil) == nil)
        #expect(totp.matchingStep(of: "", at: time, after: nil) == nil)
    }

    @Test("a code whose step was already used does not verify again")
    func codeWorksOnce() {
        let totp = TOTP(secret: TOTPTests.rfcKey)
        let time = Date(timeIntervalSince1970: 1_111_111_109)
        let step = TOTP.step(at: time)
        #expect(totp.matchingStep(of: "081804", at: time, after: step) == nil)
        #expect(totp.matchingStep(of: "081804", at: time, after: step - 1) == step)
        #expect(totp.matchingStep(of: totp.code(step: step + 1), at: time, after: step) == step + 1)
    }

    @Test("base32 round-trips and matches RFC 4648's vectors (padding left off)")
    func base32() {
        let vectors = [("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
                       ("foobar", "MZXW6YTBOI")]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base32.decode("MZXW6YTBOI======") == Array("foobar".utf8))
        #expect(Base32.decode("not base32!") == nil)
        let secret = TOTP.randomSecret()
        #expect(secret.count == 20)
        #expect(Base32.encode(secret).count == 32)
        #expect(Base32.decode(Base32.encode(secret)) == secret)
        #expect(TOTP.randomSecret() != secret)
    }
}
