import Foundation

/// Which browser origins may call the worker: every origin (`*`, as Supabase's gateway and
/// PostgREST allow by default), or only the listed ones, which then may send credentials too.
///
/// ```swift
/// let policy = try CORSPolicy("https://app.example.org, https://admin.example.org")
/// policy.allowedOrigin(for: "https://app.example.org")   // "https://app.example.org"
/// ```
public struct CORSPolicy: Sendable, Equatable {
    /// nil: every origin.
    public let origins: Set<String>?

    /// Every origin.
    public static let anyOrigin = CORSPolicy(origins: nil)

    init(origins: Set<String>?) {
        self.origins = origins
    }

    /// A comma-separated list of origins (`scheme://host[:port]`); `*` or nothing is every origin.
    public init(_ list: String) throws(ConfigurationError) {
        let names = list.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if names.isEmpty || names == ["*"] {
            self.init(origins: nil)
            return
        }
        for name in names where !name.hasPrefix("http://") && !name.hasPrefix("https://") || name.hasSuffix("/") {
            throw ConfigurationError(
                "COMPASS_CORS_ALLOWED_ORIGINS", value: name, problem: "is not an origin (scheme://host[:port], no path)")
        }
        self.init(origins: Set(names))
    }

    /// `Access-Control-Allow-Origin` for a request from `origin`; nil when it is not allowed
    /// (the reply then carries no CORS headers, and the browser keeps it from the page).
    public func allowedOrigin(for origin: String) -> String? {
        guard let origins else { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    /// Whether the browser may send cookies and credentials (only to listed origins, as `*` forbids it).
    public var allowsCredentials: Bool { origins != nil }
}
