import Foundation
import JWTKit

/// `COMPASS_JWT_SIGNING_KEYS` as written: a JWK set whose keys carry their private parts.
struct ConfiguredKeySet: Decodable {
    var keys: [ConfiguredKey]
}

/// One JWK of the setting, its fields as RFC 7517/7518 name them (`use`, `key_ops` are ignored:
/// every key signs and verifies).
public struct ConfiguredKey: Codable, Sendable {
    var kty: String?
    var kid: String?
    var alg: String?
    var crv: String?
    var x: String?
    var y: String?
    var n: String?
    var e: String?
    var d: String?
    var p: String?
    var q: String?

    /// A key that passed ``checked(position:mustSign:)``.
    public struct Checked: Sendable {
        let key: ConfiguredKey
        let kid: String
        let algorithm: SigningAlgorithm
    }

    /// This key, number `position` of the setting, checked: a kid, an ES256/RS256 key type, and
    /// its private part when `mustSign` (it signs new tokens).
    func checked(position: Int, mustSign: Bool) throws(SigningKeyError) -> Checked {
        guard let kid, !kid.isEmpty else { throw SigningKeyError("key \(position) has no kid") }
        let name = "key \(position) (kid \"\(kid.prefix(40))\")"
        guard let algorithm = signingAlgorithm else {
            throw SigningKeyError("\(name) is neither an EC P-256 key for ES256 nor an RSA key for RS256")
        }
        if mustSign, d == nil { throw SigningKeyError("\(name) signs new tokens, so it needs its private part (d)") }
        return Checked(key: self, kid: kid, algorithm: algorithm)
    }

    /// `alg` if given, else what the key type implies; nil for anything but EC P-256 and RSA.
    var signingAlgorithm: SigningAlgorithm? {
        switch (kty, crv) {
        case ("EC", "P-256"): (alg ?? "ES256") == "ES256" ? .es256 : nil
        case ("RSA", _): (alg ?? "RS256") == "RS256" ? .rs256 : nil
        default: nil
        }
    }

    /// The key, private half included, as JWTKit reads it.
    func jwk(algorithm: SigningAlgorithm, kid: String) throws -> JWK {
        var key = self
        key.alg = algorithm.rawValue
        key.kid = kid
        return try JSONDecoder().decode(JWK.self, from: JSONEncoder().encode(key))
    }
}

/// A key's public half in the published set.
struct PublishedKey: Encodable, Sendable {
    var kty: String
    var kid: String
    var alg: String
    var use = "sig"
    var keyOps = ["verify"]
    var crv: String?
    var x: String?
    var y: String?
    var n: String?
    var e: String?

    enum CodingKeys: String, CodingKey {
        case kty, kid, alg, use, crv, x, y, n, e
        case keyOps = "key_ops"
    }

    init(_ configured: ConfiguredKey, kid: String, algorithm: SigningAlgorithm) {
        kty = configured.kty ?? ""
        self.kid = kid
        alg = algorithm.rawValue
        switch algorithm {
        case .es256: (crv, x, y) = (configured.crv, configured.x, configured.y)
        case .rs256: (n, e) = (configured.n, configured.e)
        }
    }

    /// The public key as JWTKit reads it.
    var jwk: JWK {
        get throws {
            let key = ConfiguredKey(kty: kty, kid: kid, alg: alg, crv: crv, x: x, y: y, n: n, e: e)
            return try JSONDecoder().decode(JWK.self, from: JSONEncoder().encode(key))
        }
    }
}

/// The published JWK set.
struct PublishedKeySet: Encodable {
    var keys: [PublishedKey]
}
