/// `/api`'s settings, from the environment.
///
/// ```swift
/// let configuration = try AppAPIConfiguration(environment: ProcessInfo.processInfo.environment)
/// ```
/// `COMPASS_API_MAX_BODY_BYTES` (default 16384) bounds request bodies; the endpoints take small JSON objects.
public struct AppAPIConfiguration: Sendable, Hashable {
    /// The largest request body read; larger ones get 413 before they are read in full.
    public var maximumBodyBytes = 16 * 1024

    /// The defaults.
    public init() {}

    /// Reads the environment; a malformed setting throws a message naming it.
    public init(environment: [String: String]) throws(AppAPIConfigurationError) {
        if let text = environment["COMPASS_API_MAX_BODY_BYTES"], !text.isEmpty {
            guard let bytes = Int(text), bytes > 0 else {
                throw AppAPIConfigurationError("COMPASS_API_MAX_BODY_BYTES '\(text)' is not a positive whole number")
            }
            maximumBodyBytes = bytes
        }
    }
}

/// A setting of ``AppAPIConfiguration`` is malformed; the message names it.
public struct AppAPIConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the variable.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
