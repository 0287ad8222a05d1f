/// What one client may cost the server over HTTP: connections, time to send a request head,
/// time idle between requests, and the size of the request line and headers.
///
/// Requests past a limit get 414 (URL) or 431 (headers) and the connection is closed, as they
/// do for malformed HTTP (400) or a version other than 1.x (505); a head not complete in
/// ``headerTimeout`` closes the connection (so slow-header clients cannot hold sockets).
public struct HTTPLimits: Sendable, Hashable {
    /// Open connections (HTTP and WebSocket) at once; the next is answered 503 and closed.
    public var maximumConnections = 10_000
    /// Open connections from one address at once (0: no such limit), so one client cannot take
    /// every slot above; the machine itself (loopback) and trusted proxies are not counted.
    public var maximumConnectionsPerAddress = 1_000
    /// Time a new connection has to send a complete request head.
    public var headerTimeout: Duration = .seconds(10)
    /// Time a keep-alive connection may sit between a response and the next request's complete head.
    public var idleTimeout: Duration = .seconds(60)
    /// Longest request target (path and query), in bytes.
    public var maximumURLBytes = 16 * 1024
    /// Largest header block (every name and value, the request target included), in bytes.
    public var maximumHeaderBytes = 96 * 1024
    /// Most header fields a request may carry (Apache's `LimitRequestFields` is 100; clients send a
    /// dozen or two): thousands of tiny ones fit in the bytes above and cost per field; 431 past it.
    public var maximumHeaderFields = 200
    /// Bytes of request bodies being read on every connection together (``ServerContext/bodyBudget``);
    /// a body that would pass it is answered 503.
    public var maximumBufferedBodyBytes = 128 << 20
    /// Bytes of large reply bodies waiting to be sent on every connection together
    /// (``ServerContext/replies``); a large reply that would pass it is answered 503 instead.
    public var maximumUnsentReplyBytes = 256 << 20

    /// The defaults.
    public init() {}

    /// Reads `COMPASS_HTTP_*`; a malformed value throws naming the variable.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        maximumConnections = try environment.positiveInteger("COMPASS_HTTP_MAX_CONNECTIONS") ?? maximumConnections
        maximumConnectionsPerAddress =
            try environment.nonNegativeInteger("COMPASS_HTTP_MAX_CONNECTIONS_PER_ADDRESS") ?? maximumConnectionsPerAddress
        headerTimeout = try environment.seconds("COMPASS_HTTP_HEADER_TIMEOUT_SECONDS") ?? headerTimeout
        idleTimeout = try environment.seconds("COMPASS_HTTP_IDLE_TIMEOUT_SECONDS") ?? idleTimeout
        maximumURLBytes = try environment.positiveInteger("COMPASS_HTTP_MAX_URL_BYTES") ?? maximumURLBytes
        maximumHeaderBytes = try environment.positiveInteger("COMPASS_HTTP_MAX_HEADER_BYTES") ?? maximumHeaderBytes
        maximumHeaderFields = try environment.positiveInteger("COMPASS_HTTP_MAX_HEADER_FIELDS") ?? maximumHeaderFields
        maximumBufferedBodyBytes =
            try environment.positiveInteger("COMPASS_HTTP_MAX_BUFFERED_BODY_BYTES") ?? maximumBufferedBodyBytes
        maximumUnsentReplyBytes =
            try environment.positiveInteger("COMPASS_HTTP_MAX_UNSENT_REPLY_BYTES") ?? maximumUnsentReplyBytes
    }
}
