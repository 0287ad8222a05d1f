import CompassTokens
import Crypto
import Foundation

/// A PKCE challenge (RFC 7636) sent with sign-up, recovery, `/otp` or `/resend`, as GoTrue
/// takes it: `code_challenge` and `code_challenge_method` (`s256` or `plain`) together.
struct PKCEChallenge: Sendable, Hashable {
    enum Method: String, Sendable {
        case s256, plain
    }

    var challenge: String
    var method: Method

    /// The request's challenge; nil when it sent none (the implicit flow).
    static func parse(challenge: String?, method: String?) throws(AuthError) -> PKCEChallenge? {
        let challenge = challenge ?? "", method = (method ?? "").lowercased()
        if challenge.isEmpty, method.isEmpty { return nil }
        guard !challenge.isEmpty, let parsed = Method(rawValue: method) else {
            throw AuthError.validation("PKCE flow requires code_challenge_method and code_challenge")
        }
        guard PKCEChallenge.isWellFormed(challenge) else {
            throw AuthError.validation("code challenge has to be between 43 and 128 characters")
        }
        return PKCEChallenge(challenge: challenge, method: parsed)
    }

    /// Whether `verifier` is the one this challenge was made from.
    func isSatisfied(by verifier: String) -> Bool {
        switch method {
        case .plain: return verifier == challenge
        case .s256:
            return Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded == challenge
        }
    }

    /// 43 to 128 characters of `[A-Za-z0-9-._~]` (RFC 7636 §4.1), for challenges and verifiers alike.
    static func isWellFormed(_ text: String) -> Bool {
        (43...128).contains(text.utf8.count)
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            }
    }
}

/// A request body that may start a PKCE flow (sign-up, `/recover`, `/otp`, `/resend`).
protocol PKCERequestBody {
    var code_challenge: String? { get }
    var code_challenge_method: String? { get }
}

extension PKCERequestBody {
    /// The PKCE challenge, if the client sent one.
    func challenge() throws(AuthError) -> PKCEChallenge? {
        try PKCEChallenge.parse(challenge: code_challenge, method: code_challenge_method)
    }
}
