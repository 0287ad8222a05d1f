import CompassHTTP

/// `/api`'s settings, from the environment.
///
/// ```swift
/// let configuration = try AppAPIConfiguration(reading: EnvironmentReader(ProcessInfo.processInfo.environment))
/// ```
/// `COMPASS_API_MAX_BODY_BYTES` (default 16384) bounds request bodies; the endpoints take small JSON objects.
public struct AppAPIConfiguration: Sendable, Hashable {
    /// The largest request body read; larger ones get 413 before they are read in full.
    public var maximumBodyBytes = 16 * 1024

    /// The defaults.
    public init() {}

    /// Reads the environment; a malformed setting throws naming the variable.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        if let bytes = try environment.positiveInteger("COMPASS_API_MAX_BODY_BYTES") { maximumBodyBytes = bytes }
    }
}
