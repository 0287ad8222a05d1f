import CompassAppAPI
import CompassAuth
import CompassREST
import CompassRealtime

/// Every API's settings, read from the environment in one place so a bad value stops the
/// worker before it listens.
///
/// ```swift
/// let configuration = try CompassServerConfiguration(environment: ProcessInfo.processInfo.environment)
/// ```
public struct CompassServerConfiguration: Sendable {
    /// Database, secret, address and the realtime tunables.
    public var worker: WorkerConfiguration
    /// `/rest/v1`'s settings.
    public var rest: RESTConfiguration
    /// `/api`'s settings.
    public var appAPI: AppAPIConfiguration
    /// `/auth/v1`'s settings.
    public var auth: AuthConfiguration

    /// Reads every setting; the error names the first malformed one (never a secret's value).
    public init(environment: [String: String]) throws {
        worker = try WorkerConfiguration(environment: environment)
        rest = try RESTConfiguration(environment: environment)
        appAPI = try AppAPIConfiguration(environment: environment)
        auth = try AuthConfiguration(environment: environment)
    }
}
