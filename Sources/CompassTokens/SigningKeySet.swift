import Foundation
import JWTKit

/// The asymmetric keys access tokens are signed with (`COMPASS_JWT_SIGNING_KEYS`, a JWK set
/// with private keys): the first signs, every one verifies, so a rotated-out key keeps its
/// tokens valid until they expire. Only the public halves are published (``publishedJSON``).
///
/// ```swift
/// let keys = try await SigningKeySet(jwksJSON: environment["COMPASS_JWT_SIGNING_KEYS"]!)
/// keys.current.kid          // the key new tokens name in their header
/// keys.publishedJSON        // GET /auth/v1/.well-known/jwks.json
/// ```
public struct SigningKeySet: Sendable {
    /// Every key, the signing one first.
    public let keys: [SigningKey]

    /// Parses and checks every key; a key whose private half does not match its public one is refused.
    public init(jwksJSON: String) async throws(SigningKeyError) {
        var keys: [SigningKey] = []
        for (index, configured) in try Self.check(jwksJSON).enumerated() {
            keys.append(try await SigningKey(configured, position: index + 1))
        }
        self.keys = keys
    }

    /// The setting's structure checked without building keys (the worker's configuration is read
    /// synchronously): a JWK set, every key with a kid and an ES256/RS256 key type, no kid twice,
    /// the first with its private part.
    @discardableResult
    public static func check(_ jwksJSON: String) throws(SigningKeyError) -> [ConfiguredKey.Checked] {
        let set: ConfiguredKeySet
        do {
            set = try JSONDecoder().decode(ConfiguredKeySet.self, from: Data(jwksJSON.utf8))
        } catch {
            throw SigningKeyError("is not a JSON Web Key Set (an object with a \"keys\" array of keys)")
        }
        guard !set.keys.isEmpty else { throw SigningKeyError("holds no key") }
        var checked: [ConfiguredKey.Checked] = []
        for (index, configured) in set.keys.enumerated() {
            let key = try configured.checked(position: index + 1, mustSign: index == 0)
            guard !checked.contains(where: { $0.kid == key.kid }) else {
                throw SigningKeyError("names kid \"\(key.kid.prefix(40))\" twice")
            }
            checked.append(key)
        }
        return checked
    }

    /// The key new tokens are signed with.
    public var current: SigningKey { keys[0] }

    /// The key a token's `kid` names, if it is one of ours.
    func key(kid: String) -> SigningKey? {
        keys.first { $0.kid == kid }
    }

    /// The JWK set of public keys, as GoTrue publishes it (`kty`, `kid`, `alg`, `use`, `key_ops`, the curve point or modulus).
    public var publishedJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(PublishedKeySet(keys: keys.map(\.published)))) ?? Data(#"{"keys":[]}"#.utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// What is published when no signing key is configured: the HS256 secret is never published.
    public static let emptyPublishedJSON = #"{"keys":[]}"#
}

/// Why `COMPASS_JWT_SIGNING_KEYS` was refused; it never quotes key material.
public struct SigningKeyError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, phrased to follow the setting's name.
    public var problem: String

    init(_ problem: String) { self.problem = problem }

    public var description: String { "COMPASS_JWT_SIGNING_KEYS \(problem)" }
}
