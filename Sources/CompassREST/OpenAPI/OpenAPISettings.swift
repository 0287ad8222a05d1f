import CompassHTTP
import Foundation

/// PostgREST's `openapi-*` settings, read from `COMPASS_REST_OPENAPI_*`.
///
/// ```swift
/// var settings = OpenAPISettings()
/// settings.mode = .ignorePrivileges              // describe everything, whoever asks
/// settings.serverProxyURI = try .init("https://api.example.com/rest/v1/")
/// ```
public struct OpenAPISettings: Sendable, Hashable {
    /// `COMPASS_REST_OPENAPI_MODE`, PostgREST's `openapi-mode`.
    public enum Mode: String, Sendable, CaseIterable {
        /// The requesting role's tables and functions only, with the methods it may use (the default).
        case followPrivileges = "follow-privileges"
        /// Everything in the schema, whoever asks.
        case ignorePrivileges = "ignore-privileges"
        /// `GET /rest/v1/` is 404 PGRST126.
        case disabled
    }

    /// Where the document says the API lives: `scheme://host[:port]/path`
    /// (`COMPASS_REST_OPENAPI_SERVER_PROXY_URI`, PostgREST's `openapi-server-proxy-uri`).
    public struct ServerURI: Sendable, Hashable {
        public var scheme: String
        public var host: String
        public var port: Int
        public var basePath: String

        /// Reads an absolute http(s) URI; nil when it is not one.
        public init?(_ text: String) {
            guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
            else { return nil }
            self.scheme = scheme
            self.host = host
            self.port = components.port ?? (scheme == "https" ? 443 : 80)
            self.basePath = components.path.isEmpty ? "/" : components.path
        }
    }

    public var mode = Mode.followPrivileges
    /// When nil, the document names the host the request was sent to, `http`, and `/rest/v1/`.
    public var serverProxyURI: ServerURI?
    /// `COMPASS_REST_OPENAPI_SECURITY_ACTIVE`: the document declares the bearer token (PostgREST's `openapi-security-active`).
    public var securityActive = false
    /// `info.version`: the server's release (the worker sets it).
    public var version = "0"

    /// The defaults.
    public init() {}

    /// Reads the environment; a malformed value throws naming the variable.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        if let text = environment.string("COMPASS_REST_OPENAPI_MODE") {
            guard let mode = Mode(rawValue: text) else {
                let names = Mode.allCases.map(\.rawValue).joined(separator: ", ")
                throw ConfigurationError("COMPASS_REST_OPENAPI_MODE", value: text, problem: "is not one of \(names)")
            }
            self.mode = mode
        }
        if let text = environment.string("COMPASS_REST_OPENAPI_SERVER_PROXY_URI") {
            guard let uri = ServerURI(text) else {
                throw ConfigurationError("COMPASS_REST_OPENAPI_SERVER_PROXY_URI", value: text, problem: "is not an http(s) URL")
            }
            serverProxyURI = uri
        }
        if let active = try environment.boolean("COMPASS_REST_OPENAPI_SECURITY_ACTIVE") { securityActive = active }
    }
}
