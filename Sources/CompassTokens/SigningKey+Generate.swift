import Crypto
import Foundation

extension SigningKey {
    /// A new ES256 (P-256) private JWK as JSON text, with a random `kid`: what `compass keys
    /// --new-signing-key` prints for `COMPASS_JWT_SIGNING_KEYS`.
    public static func newES256JWK(kid: String = UUID().uuidString.lowercased()) -> String {
        let key = P256.Signing.PrivateKey()
        // x963: 0x04 || x || y, 32 bytes each.
        let point = key.publicKey.x963Representation
        let jwk = ConfiguredKey(
            kty: "EC", kid: kid, alg: SigningAlgorithm.es256.rawValue, crv: "P-256",
            x: HS256Text.base64URL(point.dropFirst().prefix(32)), y: HS256Text.base64URL(point.suffix(32)),
            d: HS256Text.base64URL(key.rawRepresentation))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(jwk)) ?? Data(), as: UTF8.self)
    }
}
