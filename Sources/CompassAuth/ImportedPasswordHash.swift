/// A password hash an admin brings from another service (`password_hash` at `POST /admin/users`).
///
/// Only bcrypt, which Postgres's pgcrypto checks at sign-in. pgcrypto reads only the `$2a$`
/// prefix as bcrypt (it would take `$2b$` for a DES salt and never match), and `$2b$` and `$2y$`
/// name the same computation for passwords of up to 72 bytes (the most accepted here), so those
/// are stored as `$2a$`. GoTrue also takes Argon2 and Firebase scrypt hashes; those are refused
/// by name rather than stored unusable. A cost above 14 is refused too: every sign-in runs it in
/// Postgres (cost 31 would hold a connection for hours).
enum ImportedPasswordHash {
    static let costs = 4...14

    static func storable(_ hash: String) throws(AuthError) -> String {
        let bytes = Array(hash.utf8)
        // `$2?$NN$` and 53 characters of bcrypt's base64: 22 of salt, 31 of digest.
        guard bytes.count == 60, hash.hasPrefix("$2"), ["a", "b", "y"].contains(Character(UnicodeScalar(bytes[2]))),
            bytes[3] == UInt8(ascii: "$"), bytes[6] == UInt8(ascii: "$"),
            bytes[4...5].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)), costs.contains(cost),
            bytes[7...].allSatisfy(isBcryptBase64)
        else {
            if hash.hasPrefix("$argon2") || hash.hasPrefix("$fbscrypt") {
                throw .validation("Only bcrypt password hashes ($2a$, $2b$, $2y$) can be imported here")
            }
            throw .validation("Invalid password hash: expected a bcrypt hash ($2a$, $2b$ or $2y$) of cost 4 to 14")
        }
        return "$2a$" + String(decoding: bytes[4...], as: UTF8.self)
    }

    private static func isBcryptBase64(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): true
        default: false
        }
    }
}
