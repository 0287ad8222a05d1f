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
/// | `COMPASS_REALTIME_OUTBOUND_BUFFER_BYTES` | 16777216 | bytes a client may have waiting (16 MiB) |
/// | `COMPASS_REALTIME_OUTBOUND_BUFFER_TOTAL_BYTES` | 268435456 | bytes all clients may have waiting together (256 MiB; the hub's ``RealtimeHub/outboundBudget``) |
/// | `COMPASS_REALTIME_MAX_CHANNELS_PER_CLIENT` | 100 | channels one connection may join |
/// | `COMPASS_REALTIME_MAX_BINDINGS_PER_JOIN` | 100 | `postgres_changes` entries one join may carry |
/// | `COMPASS_REALTIME_MAX_BINDINGS` | 200000 | table bindings all connections may hold together |
/// | `COMPASS_REALTIME_MAX_BINDINGS_PER_ADDRESS` | 20000 | table bindings the connections from one client address may hold |
public struct RealtimeConfiguration: Sendable {
    /// Frames a client may have waiting before it is closed as too slow.
    public var outboundBufferFrames = 1000
    /// Bytes a client may have waiting before it is closed as too slow: frames can hold
    /// megabyte-sized records, so a frame count alone let one unread socket pin a gigabyte.
    public var outboundBufferBytes = 16 << 20
    /// Bytes all clients may have waiting together: past it, a client with a backlog is closed as
    /// too slow at its next frame (two hundred unread sockets held 3 GB under the bound above alone).
    public var outboundBufferTotalBytes = 256 << 20
    /// Channels one connection may join (the reference's `max_channels_per_client`).
    public var maximumChannelsPerConnection = 100
    /// `postgres_changes` entries one join may carry; more refuse the join.
    ///
    /// The reference sets no such cap, but every binding costs a catalog look-up at the join
    /// and a match per change; 100 is far above what apps send (a few per channel) and, with
    /// the channel cap, bounds one connection to 10,000 bindings.
    public var maximumBindingsPerJoin = 100
    /// Table bindings every connection's channels hold together (a binding costs ~760 bytes and
    /// a match per change); a join that would pass it is refused. Without it, many connections of
    /// full channels reached a million bindings and 740 MB.
    public var maximumBindings = 200_000
    /// Table bindings the connections from one client address hold together (IPv6 by /64, the
    /// address behind a trusted proxy; loopback is not counted): a wildcard binds every table of
    /// its schema, so five anonymous sockets reached the total above in three seconds and every
    /// other join failed until they left.
    public var maximumBindingsPerAddress = 20_000

    /// The longest topic a join may name (bytes): apps name channels in a few words.
    public static let maximumTopicBytes = 1024
    /// The longest `filter` a binding may carry (bytes): an `in` list of a hundred UUIDs is 3.7 KB.
    public static let maximumFilterBytes = 8192

    /// The two binding limits, as the registry checks them.
    var bindingLimits: BindingLimits { BindingLimits(total: maximumBindings, perAddress: maximumBindingsPerAddress) }
    /// Largest client message accepted.
    ///
    /// Also the WebSocket frame limit: a single larger frame closes the socket with 1009
    /// before it is buffered; a larger message sent in smaller fragments is answered with
    /// `MessageTooLarge` and dropped.
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
    /// Disconnects since the last trim that make the sweeper hand freed heap back to the system.
    public var memoryTrimDisconnects = 64
    /// The least time between two such trims (a trim walks every malloc arena).
    public var memoryTrimInterval: Duration = .seconds(5)
    /// After a burst, one more trim once no client has left for this long (longer than the
    /// WebSocket close timeout, whose timers hold memory until they fire).
    public var memoryTrimSettle: Duration = .seconds(10)

    /// The defaults.
    public init() {}

    /// Reads the `COMPASS_REALTIME_*` variables; a malformed one throws naming it.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        if let retention = try environment.seconds("COMPASS_REALTIME_RETENTION_SECONDS") { changeRetention = retention }
        if let interval = try environment.seconds("COMPASS_REALTIME_PRUNE_INTERVAL_SECONDS") { pruneInterval = interval }
        if let interval = try environment.seconds("COMPASS_REALTIME_POLL_INTERVAL_SECONDS") { fallbackPollInterval = interval }
        if let timeout = try environment.seconds("COMPASS_REALTIME_IDLE_TIMEOUT_SECONDS") { idleTimeout = timeout }
        if let frames = try environment.positiveInteger("COMPASS_REALTIME_OUTBOUND_BUFFER") { outboundBufferFrames = frames }
        if let bytes = try environment.positiveInteger("COMPASS_REALTIME_OUTBOUND_BUFFER_BYTES") { outboundBufferBytes = bytes }
        if let bytes = try environment.positiveInteger("COMPASS_REALTIME_OUTBOUND_BUFFER_TOTAL_BYTES") { outboundBufferTotalBytes = bytes }
        if let channels = try environment.positiveInteger("COMPASS_REALTIME_MAX_CHANNELS_PER_CLIENT") {
            maximumChannelsPerConnection = channels
        }
        if let bindings = try environment.positiveInteger("COMPASS_REALTIME_MAX_BINDINGS_PER_JOIN") { maximumBindingsPerJoin = bindings }
        if let bindings = try environment.positiveInteger("COMPASS_REALTIME_MAX_BINDINGS") { maximumBindings = bindings }
        if let bindings = try environment.positiveInteger("COMPASS_REALTIME_MAX_BINDINGS_PER_ADDRESS") {
            maximumBindingsPerAddress = bindings
        }
    }
}
