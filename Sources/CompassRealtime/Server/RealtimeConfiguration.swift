import CompassHTTP

/// The realtime API's settings (the server's own — address, database, secret — are the server's).
///
/// ```swift
/// let configuration = try RealtimeConfiguration(reading: EnvironmentReader(ProcessInfo.processInfo.environment))
/// ```
/// | variable | default | meaning |
/// |---|---|---|
/// | `COMPASS_REALTIME_RETENTION_SECONDS` | 3600 | how long stored changes are kept |
/// | `COMPASS_REALTIME_PRUNE_INTERVAL_SECONDS` | 60 | how often pruning runs |
/// | `COMPASS_REALTIME_POLL_INTERVAL_SECONDS` | 1 | poll for changes at least this often |
/// | `COMPASS_REALTIME_IDLE_TIMEOUT_SECONDS` | 60 | close a socket silent this long |
/// | `COMPASS_REALTIME_OUTBOUND_BUFFER` | 1000 | frames a client may have waiting |
public struct RealtimeConfiguration: Sendable {
    /// Frames a client may have waiting before it is closed as too slow.
    public var outboundBufferFrames = 1000
    /// Channels one connection may join.
    public var maximumChannelsPerConnection = 100
    /// Largest client message accepted; larger ones are answered with an error and dropped.
    public var maximumMessageBytes = 256 * 1024
    /// Records larger than this are sent cut down with `Error 413` (the reference's 1 MB).
    public var maximumRecordBytes = 1 << 20
    /// A connection silent this long is closed (clients heartbeat every 25 s).
    public var idleTimeout: Duration = .seconds(60)
    /// How long stored changes are kept before pruning.
    public var changeRetention: Duration = .seconds(3600)
    /// How often pruning runs.
    public var pruneInterval: Duration = .seconds(60)
    /// Poll `realtime.changes` at least this often, notifications or not.
    public var fallbackPollInterval: Duration = .seconds(1)
    /// How long shutdown waits for clients to take their close frames.
    public var shutdownGracePeriod: Duration = .seconds(5)

    /// The defaults.
    public init() {}

    /// Reads the `COMPASS_REALTIME_*` variables; a malformed one throws naming it.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        if let retention = try environment.seconds("COMPASS_REALTIME_RETENTION_SECONDS") { changeRetention = retention }
        if let interval = try environment.seconds("COMPASS_REALTIME_PRUNE_INTERVAL_SECONDS") { pruneInterval = interval }
        if let interval = try environment.seconds("COMPASS_REALTIME_POLL_INTERVAL_SECONDS") { fallbackPollInterval = interval }
        if let timeout = try environment.seconds("COMPASS_REALTIME_IDLE_TIMEOUT_SECONDS") { idleTimeout = timeout }
        if let frames = try environment.positiveInteger("COMPASS_REALTIME_OUTBOUND_BUFFER") { outboundBufferFrames = frames }
    }
}
