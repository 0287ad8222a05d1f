import Foundation

extension Data {
    /// Unpadded base64url (RFC 4648 §5): JWT parts, JWK coordinates, PKCE digests, random tokens.
    public var base64URLEncoded: String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
