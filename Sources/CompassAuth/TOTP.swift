import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238): HMAC-SHA1 over 30-second steps, 6 digits, as
/// authenticator apps and GoTrue's TOTP factors use them.
///
/// ```swift
/// let totp = TOTP(secret: TOTP.randomSecret())
/// totp.code(at: Date())            // "492039"
/// ```
struct TOTP: Sendable {
    /// Seconds per step.
    static let period: Int64 = 30
    /// Digits of a code.
    static let digits = 6
    /// Steps either side of now that still verify (clock drift between phone and server).
    static let allowedSkew: Int64 = 1

    /// The shared key (raw bytes, not base32).
    let secret: [UInt8]

    /// The step `date` falls in.
    static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(period)).rounded(.down))
    }

    /// The code for `step` (RFC 4226's dynamic truncation of HMAC-SHA1 over the big-endian step).
    func code(step: Int64, digits: Int = TOTP.digits) -> String {
        var counter = UInt64(bitPattern: step).bigEndian
        let message = withUnsafeBytes(of: &counter) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let binary = (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16)
            | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let value = String(binary % modulus)
        return String(repeating: "0", count: digits - value.count) + value
    }

    /// The code valid at `date`.
    func code(at date: Date) -> String {
        code(step: TOTP.step(at: date))
    }

    /// The step within the allowed skew of `date` whose code is `code`, later than `after`
    /// (a step already used: a code works once). Every candidate is compared in full, so the
    /// time taken does not tell how close a guess came.
    func matchingStep(of code: String, at date: Date, after usedStep: Int64?) -> Int64? {
        let now = TOTP.step(at: date)
        var found: Int64?
        for step in (now - TOTP.allowedSkew)...(now + TOTP.allowedSkew) {
            let expected = Array(self.code(step: step).utf8)
            let given = Array(code.utf8)
            var difference = UInt8(expected.count == given.count ? 0 : 1)
            for (a, b) in zip(expected, given) { difference |= a ^ b }
            if difference == 0, step > (usedStep ?? .min), found == nil { found = step }
        }
        return found
    }

    /// 20 random bytes (160 bits, RFC 4226's recommended key length).
    static func randomSecret() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<20).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

/// RFC 4648 base32 (upper-case, no padding): how authenticator apps take a TOTP secret.
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// `bytes` in base32.
    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                output.append(alphabet[Int((buffer >> UInt32(bits - 5)) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { output.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base32 `text` (case-insensitive, padding ignored); nil when it is not base32.
    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        for character in text.uppercased().utf8 where character != UInt8(ascii: "=") {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            buffer = (buffer << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                output.append(UInt8((buffer >> UInt32(bits - 8)) & 0xff))
                bits -= 8
            }
        }
        return output
    }
}
