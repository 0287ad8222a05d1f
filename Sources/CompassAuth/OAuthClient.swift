import CompassTokens
import Crypto
import Foundation

/// An app registered with the OAuth 2.1 server, as GoTrue's `/admin/oauth/clients` returns it.
///
/// `client_secret` is set only in the reply that created or regenerated it: only its hash is kept.
/// Empty `client_name`, `client_uri` and `logo_uri` are left out, as GoTrue leaves them out.
struct OAuthClient: Codable, Equatable {
    var clientID: String
    var clientSecret: String?
    var clientType: String
    var tokenEndpointAuthMethod: String
    var registrationType: String
    var redirectURIs: [String]
    var grantTypes: [String]
    var responseTypes: [String]
    var clientName: String?
    var clientURI: String?
    var logoURI: String?
    var createdAt: String
    var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case clientType = "client_type"
        case tokenEndpointAuthMethod = "token_endpoint_auth_method"
        case registrationType = "registration_type"
        case redirectURIs = "redirect_uris"
        case grantTypes = "grant_types"
        case responseTypes = "response_types"
        case clientName = "client_name"
        case clientURI = "client_uri"
        case logoURI = "logo_uri"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }
}

/// The rules GoTrue's OAuth server holds a client's registration to.
enum OAuthClientRules {
    static let grantTypes = ["authorization_code", "refresh_token"]
    static let authMethods = ["none", "client_secret_basic", "client_secret_post"]

    /// A client with no secret (`public`) authenticates with `none`; a confidential one with its secret.
    static func clientType(forAuthMethod method: String) -> String {
        method == "none" ? "public" : "confidential"
    }

    static func authMethods(forClientType type: String) -> [String] {
        type == "public" ? ["none"] : ["client_secret_basic", "client_secret_post"]
    }

    /// 1 to 10 absolute URIs with a host and no fragment; plain `http` only to this machine; no
    /// scheme that runs or embeds content (`javascript:`, `data:`…).
    static func checkRedirectURIs(_ uris: [String]) throws(AuthError) {
        guard !uris.isEmpty else { throw .validation("redirect_uris is required") }
        guard uris.count <= 10 else { throw .validation("redirect_uris cannot exceed 10 items") }
        for uri in uris {
            if let problem = redirectURIProblem(uri) {
                throw .validation("invalid redirect_uri '\(uri)': \(problem)")
            }
        }
    }

    private static func redirectURIProblem(_ uri: String) -> String? {
        guard !uri.isEmpty else { return "redirect URI cannot be empty" }
        guard let components = parsedURL(uri) else { return "invalid URL format" }
        guard let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty else {
            return "must have scheme and host"
        }
        if ["javascript", "data", "file", "vbscript", "about", "blob"].contains(scheme) {
            return "scheme '\(components.scheme ?? scheme)' is not allowed for security reasons"
        }
        if scheme == "http", !["localhost", "127.0.0.1", "::1", "[::1]"].contains(host) {
            return "HTTP scheme only allowed for localhost"
        }
        if let fragment = components.fragment, !fragment.isEmpty { return "fragment not allowed in redirect URI" }
        return nil
    }

    static func checkGrantTypes(_ types: [String]) throws(AuthError) {
        guard !types.isEmpty else { throw .validation("grant_types cannot be empty") }
        guard types.allSatisfy(grantTypes.contains) else {
            throw .validation("grant_types must only contain 'authorization_code' and/or 'refresh_token'")
        }
    }

    /// Lengths count UTF-8 bytes, as GoTrue's `len()` does (never fewer than the characters the
    /// table's checks count).
    static func checkName(_ name: String?) throws(AuthError) {
        if let name, name.utf8.count > 1024 { throw .validation("client_name cannot exceed 1024 characters") }
    }

    /// `client_uri` or `logo_uri`: empty, or an absolute URL (or absolute path) of at most 2,048 bytes.
    static func checkURI(_ uri: String?, field: String) throws(AuthError) {
        guard let uri, !uri.isEmpty else { return }
        guard uri.utf8.count <= 2048 else { throw .validation("\(field) cannot exceed 2048 characters") }
        guard let components = parsedURL(uri), components.scheme != nil || uri.hasPrefix("/") else {
            throw .validation("\(field) must be a valid URL")
        }
    }

    /// A URL as strict as Go's parser, which GoTrue uses: no control characters (a redirect
    /// target must not split a header), no backslash (browsers read `evil.com\@localhost` as host
    /// `evil.com`; Foundation reads `localhost`), every `%` a two-digit escape, none in the host.
    private static func parsedURL(_ text: String) -> URLComponents? {
        var bytes = text.utf8.makeIterator()
        while let byte = bytes.next() {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { return nil }
            if byte == UInt8(ascii: "%") {
                guard let high = bytes.next(), let low = bytes.next(), isHexDigit(high), isHexDigit(low) else { return nil }
            }
        }
        guard let components = URLComponents(string: text) else { return nil }
        if components.percentEncodedHost?.contains("%") == true { return nil }
        return components
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    static func checkAuthMethod(_ method: String?) throws(AuthError) {
        if let method, !authMethods.contains(method) {
            throw .validation("token_endpoint_auth_method must be one of: [none client_secret_basic client_secret_post]")
        }
    }
}

/// A confidential client's secret: 256 random bits, base64url, kept only as a SHA-256 hash.
enum OAuthClientSecret {
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64URLEncoded
    }

    /// What is stored: the base64url SHA-256 of the secret, as GoTrue stores it.
    static func hash(_ secret: String) -> String {
        Data(SHA256.hash(data: Data(secret.utf8))).base64URLEncoded
    }
}
