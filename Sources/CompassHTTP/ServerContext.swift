import CompassTokens
import Foundation
import Logging
import Postgres
import Prometheus

/// What every API of compass-worker shares, built once by the server: the connection pool,
/// the token verifier, the metrics registry, the logger and the clock.
///
/// ```swift
/// let context = try await ServerContext(postgres: postgres, jwtSecret: secret, poolSize: 10, logger: logger)
/// let rest = RESTAPI(context: context, configuration: settings.rest)
/// ```
/// The pool is a `Service`: the server runs it in its `ServiceGroup`, after every API that uses it.
public struct ServerContext: Sendable {
    /// The connections the HTTP APIs (auth, REST, `/api`) lease per request.
    public let pool: PostgresPool
    /// Where the pool's connections go (an API that needs its own connections copies it).
    public let postgres: PostgresConfiguration
    /// Where LISTEN connections go (always a direct connection, never through a pooler).
    public let listener: PostgresConfiguration
    /// Verifies API keys and access tokens for every surface.
    public let verifier: AccessTokenVerifier
    /// The asymmetric keys access tokens are signed with (`COMPASS_JWT_SIGNING_KEYS`), nil for HS256 only.
    public let signingKeys: SigningKeySet?
    /// The registry `/metrics` renders; each API registers its own metrics in it.
    public let metrics: PrometheusCollectorRegistry
    /// Where the server logs.
    public let logger: Logger
    /// The clock token expiry, sessions and relative times are computed against.
    public let now: @Sendable () -> Date

    /// How long a request waits for a free pooled connection before it is answered 503.
    public let poolCheckoutTimeout: Duration

    /// The bytes of request bodies being read at once, over every API (see ``Request/collectBody(upTo:budget:)``).
    public let bodyBudget: ByteBudget
    /// The bytes of large reply parts (``countedReplyPartBytes`` and up) handed to sockets and not
    /// yet sent, over every connection: a client that asks for a large reply and never reads it
    /// leaves the reply in memory until its connection ends. An API about to send a large reply
    /// asks ``ByteBudget/admits(_:)`` first (503 `server_busy` when it does not).
    public let replies: ByteBudget
    /// Reply parts smaller than this are not counted in ``replies``: their total is bounded by the connections.
    public static let countedReplyPartBytes = 16 << 10
    /// One client address's share of ``pool``: half its connections (REST and `/api`).
    public let clientShare: ClientShare

    /// Builds the shared parts; nothing connects until the pool runs.
    public init(
        postgres: PostgresConfiguration, listener: PostgresConfiguration? = nil, jwtSecret: String,
        signingKeys: SigningKeySet? = nil, poolSize: Int, poolCheckoutTimeout: Duration = .seconds(10),
        maximumBufferedBodyBytes: Int = HTTPLimits().maximumBufferedBodyBytes,
        maximumUnsentReplyBytes: Int = HTTPLimits().maximumUnsentReplyBytes, logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws(JWTSecretError) {
        self.postgres = postgres
        self.bodyBudget = ByteBudget(limit: maximumBufferedBodyBytes)
        self.replies = ByteBudget(limit: maximumUnsentReplyBytes)
        self.clientShare = ClientShare(limit: poolSize / 2)
        self.listener = listener ?? postgres
        self.poolCheckoutTimeout = poolCheckoutTimeout
        self.pool = PostgresPool(
            configuration: postgres, maximumConnections: poolSize, checkoutTimeout: poolCheckoutTimeout, logger: logger)
        self.verifier = try await AccessTokenVerifier(secret: jwtSecret, signingKeys: signingKeys)
        self.signingKeys = signingKeys
        self.metrics = PrometheusCollectorRegistry()
        self.logger = logger
        self.now = now
    }

    /// A pool of an API's own (run it in the API's ``CompassAPI/resources``), so that API keeps
    /// answering while the shared one is saturated.
    public func makePool(size: Int) -> PostgresPool {
        PostgresPool(configuration: postgres, maximumConnections: size, checkoutTimeout: poolCheckoutTimeout, logger: logger)
    }
}
