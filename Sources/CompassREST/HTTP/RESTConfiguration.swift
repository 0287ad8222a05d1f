import CompassHTTP

/// The REST API's settings.
///
/// ```swift
/// let configuration = try RESTConfiguration(reading: EnvironmentReader(ProcessInfo.processInfo.environment))
/// ```
/// `COMPASS_REST_MAX_BODY_BYTES` (default 1 MiB) caps write and RPC bodies.
public struct RESTConfiguration: Sendable {
    /// The exposed schema (PostgREST's `db-schemas`); only `public` is served.
    public var schema = "public"
    /// Largest request body accepted, in bytes.
    public var maximumBodyBytes = 1 << 20

    /// The defaults.
    public init() {}

    /// Reads the environment; a malformed value throws naming the variable.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        if let bytes = try environment.positiveInteger("COMPASS_REST_MAX_BODY_BYTES") { maximumBodyBytes = bytes }
    }
}
