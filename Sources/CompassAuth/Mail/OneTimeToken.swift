import Crypto
import Foundation

/// What a mail carries to prove its reader holds the address: a 6-digit code, and a link
/// token derived from the address and the code.
///
/// The link token is an HMAC under a key derived from the JWT secret (GoTrue uses a plain hash),
/// so knowing an address does not let anyone precompute its million possible link tokens; the
/// code alone is only good together with the address, at `/verify`, whose attempts are
/// rate-limited. Only ``storedHash`` reaches the database.
struct OneTimeToken: Sendable, Hashable {
    /// Which of GoTrue's token types (`auth.one_time_tokens.token_type`).
    enum Kind: String, Sendable, CaseIterable {
        case confirmation = "confirmation_token"
        case recovery = "recovery_token"
        case emailChangeNew = "email_change_token_new"
        case emailChangeCurrent = "email_change_token_current"
        case reauthentication = "reauthentication_token"
    }

    /// The 6-digit code (`{{ .Token }}` in GoTrue's templates).
    var code: String
    /// The token of the mailed link (`?token=`), hex.
    var linkToken: String

    /// The hex SHA-256 of ``linkToken``: what is stored and looked up.
    var storedHash: String { OneTimeToken.storedHash(ofLinkToken: linkToken) }

    static func storedHash(ofLinkToken token: String) -> String {
        SessionIssuer.hash(token)
    }
}

/// Makes and re-derives one-time tokens with the server's key.
struct OneTimeTokenKey: Sendable {
    private let key: SymmetricKey

    init(secret: String) {
        key = SymmetricKey(data: SHA256.hash(data: Data(("compass one-time tokens:" + secret).utf8)))
    }

    /// A fresh token for `email`.
    func issue(for email: String) -> OneTimeToken {
        var generator = SystemRandomNumberGenerator()
        let code = String(format: "%06d", Int.random(in: 0..<1_000_000, using: &generator))
        return OneTimeToken(code: code, linkToken: linkToken(email: email, code: code))
    }

    /// The link token of `code` sent to `email` (how a typed code is checked).
    func linkToken(email: String, code: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data((email.lowercased() + "\u{0}" + code).utf8), using: key)
        return Data(mac).hexString
    }
}

extension Sequence<UInt8> {
    /// Lower-case hex, two digits a byte.
    var hexString: String { map { String(format: "%02x", $0) }.joined() }
}
