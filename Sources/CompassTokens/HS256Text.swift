import Crypto
import Foundation

/// The compact JWT text form: base64url parts and an HS256 signature over exact bytes.
///
/// JWTKit signs Codable payloads; this signs claim text as written, for the API keys'
/// fixed bytes (and tests that need claims no encoder would write).
enum HS256Text {
    /// `header.payload.signature` for `claimsJSON`, signed with `secret`'s UTF-8 bytes (tests
    /// pass other headers: forgeries naming a signing key's `kid`).
    static func token(header: String = #"{"alg":"HS256","typ":"JWT"}"#, claimsJSON: String, secret: String) -> String {
        let signingInput = base64URL(Data(header.utf8)) + "." + base64URL(Data(claimsJSON.utf8))
        let signature = HMAC<SHA256>.authenticationCode(
            for: Data(signingInput.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return signingInput + "." + base64URL(Data(signature))
    }

    /// Unpadded base64url.
    static func base64URL(_ data: Data) -> String { data.base64URLEncoded }

    /// Decodes one base64url part (padding optional) as UTF-8 text.
    static func decodedText(_ part: Substring) -> String? {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
