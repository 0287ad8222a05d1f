/// The REST API's settings.
///
/// ```swift
/// let configuration = try RESTConfiguration(environment: ProcessInfo.processInfo.environment)
/// ```
/// `COMPASS_REST_MAX_BODY_BYTES` (default 1 MiB) caps write and RPC bodies.
public struct RESTConfiguration: Sendable {
    /// The exposed schema (PostgREST's `db-schemas`); only `public` is served.
    public var schema = "public"
    /// Largest request body accepted, in bytes.
    public var maximumBodyBytes = 1 << 20

    /// The defaults.
    public init() {}

    /// Reads the environment; a malformed value throws a message naming the setting.
    public init(environment: [String: String]) throws(RESTConfigurationError) {
        if let text = environment["COMPASS_REST_MAX_BODY_BYTES"]?.trimmingSpaces, !text.isEmpty {
            guard let bytes = Int(text), bytes > 0 else {
                throw RESTConfigurationError(description: "COMPASS_REST_MAX_BODY_BYTES '\(text)' is not a positive whole number")
            }
            maximumBodyBytes = bytes
        }
    }
}

/// A REST setting is malformed.
public struct RESTConfigurationError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
