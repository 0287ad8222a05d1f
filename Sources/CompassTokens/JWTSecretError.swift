import JWTKit

/// The JWT secret is too short for HS256 (fewer than 32 bytes, the hash's size).
public struct JWTSecretError: Error, Sendable, CustomStringConvertible {
    /// The secret's length in bytes.
    public var length: Int

    /// The shortest secret accepted, in UTF-8 bytes.
    public static let minimumLength = 32

    /// Refuses a secret shorter than ``minimumLength``.
    public static func check(_ secret: String) throws(JWTSecretError) {
        guard secret.utf8.count >= minimumLength else { throw JWTSecretError(length: secret.utf8.count) }
    }

    public var description: String {
        "COMPASS_JWT_SECRET is \(length) bytes long; HS256 needs at least \(Self.minimumLength) bytes"
    }
}

extension JWTKeyCollection {
    /// The project's one HS256 key, the secret taken as its UTF-8 bytes (as Supabase does).
    static func hs256(secret: String) async throws(JWTSecretError) -> JWTKeyCollection {
        try JWTSecretError.check(secret)
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return keys
    }
}
