import CompassAppAPI
import CompassAuth
import CompassData
import CompassHTTP
import CompassREST
import CompassRealtime
import CompassTokens
import Logging
import Postgres

/// Every setting of compass-worker, read once from the environment through one
/// ``EnvironmentReader`` so a bad value stops the worker before it listens.
///
/// ```swift
/// let configuration = try ServerConfiguration(environment: ProcessInfo.processInfo.environment)
/// ```
/// `DATABASE_URL` and `COMPASS_JWT_SECRET` are required; `COMPASS_JWT_SIGNING_KEYS` (none), `COMPASS_WORKER_HOST` (127.0.0.1),
/// `COMPASS_WORKER_PORT` (4000), `LOG_LEVEL` (info), `COMPASS_LOG_FORMAT` (text), `COMPASS_DB_POOL_SIZE` (10) and
/// `COMPASS_DB_STATEMENT_CACHE_SIZE` (128; 0 behind a transaction-mode pooler),
/// `COMPASS_LISTEN_DATABASE_URL` (`DATABASE_URL`; Postgres itself when `DATABASE_URL` is a
/// transaction-mode pooler, which cannot hold a LISTEN) and `COMPASS_TRUSTED_PROXIES` (none)
/// are optional, beside each API's own settings.
public struct ServerConfiguration: Sendable {
    /// The address to listen on.
    public var host = "127.0.0.1"
    /// The port to listen on (0 picks a free one).
    public var port = 4000
    /// What one client may cost over HTTP (connections, header time and size).
    public var http = HTTPLimits()
    /// How much to log.
    public var logLevel: Logger.Level = .info
    /// How log lines look: `text` (default) or `json`, one object a line.
    public var logFormat = LogFormat.text
    /// Where the API pools' connections go (`authenticator` or a superuser), with the statement cache size.
    public var database: PostgresConfiguration
    /// Where LISTEN connections go (the same server, its own `application_name`, unless
    /// `COMPASS_LISTEN_DATABASE_URL` names another route to it).
    public var listener: PostgresConfiguration
    /// The load balancers whose `X-Forwarded-For` names the client (rate limits key on it).
    public var trustedProxies = TrustedProxies.none
    /// `COMPASS_CORS_ALLOWED_ORIGINS`: the browser origins that may call the worker (default every one, `*`).
    public var cors = CORSPolicy.anyOrigin
    /// Connections REST and `/api` may hold open at once (auth has its own few, see ``AuthConfiguration/poolSize``).
    public var poolSize = 10
    /// How long a request waits for a free connection before it is answered 503 with `Retry-After`.
    public var poolCheckoutTimeout: Duration = .seconds(10)
    /// The HS256 secret: the API keys' signature, and access tokens' when no signing key is set.
    public var jwtSecret: String
    /// `COMPASS_JWT_SIGNING_KEYS`: a JWK set of ES256/RS256 private keys; the first signs access
    /// tokens, every one verifies (rotation). Nil: access tokens are HS256 as before.
    public var jwtSigningKeys: String?
    /// `/auth/v1`'s settings.
    public var auth = AuthConfiguration()
    /// `/rest/v1`'s settings.
    public var rest = RESTConfiguration()
    /// `/api`'s settings.
    public var appAPI = AppAPIConfiguration()
    /// `/realtime/v1`'s settings.
    public var realtime = RealtimeConfiguration()
    /// The migration `/ready` expects the database at: the latest in the `sql/migrations` this
    /// worker ships (found as `compass migrate` finds it: `COMPASS_SQL_DIR`, else walking up
    /// from the working directory and the executable); nil when there is none.
    public var expectedSchemaVersion: Int? = Self.shippedSchemaVersion

    /// The latest migration in the `sql/migrations` found at startup.
    public static let shippedSchemaVersion: Int? = {
        guard let directory = try? SQLDirectory.locate() else { return nil }
        return (try? Migrator(directory: directory.migrations))?.migrations.last?.version
    }()

    /// The `application_name` of the LISTEN connections, so operators can tell them apart.
    public static let listenApplicationName = "compass-worker-listen"

    /// Explicit values (tests, benchmarks); everything else at its default.
    public init(database: PostgresConfiguration, listener: PostgresConfiguration? = nil, jwtSecret: String) {
        self.database = database
        self.listener = listener ?? database
        self.jwtSecret = jwtSecret
    }

    /// Reads every setting; the error names the first malformed one (never a secret's value).
    public init(environment variables: [String: String]) throws(ConfigurationError) {
        let environment = EnvironmentReader(variables)
        let url = try environment.required("DATABASE_URL")
        let listenURL = environment.string("COMPASS_LISTEN_DATABASE_URL")
        let secret = try environment.secret("COMPASS_JWT_SECRET") { secret in
            do throws(JWTSecretError) {
                try JWTSecretError.check(secret)
                return nil
            } catch {
                return "is \(error.length) bytes long; HS256 needs at least \(JWTSecretError.minimumLength) bytes"
            }
        }
        self.init(
            database: try Self.connection("DATABASE_URL", url, applicationName: "compass-worker"),
            listener: try Self.connection(
                listenURL == nil ? "DATABASE_URL" : "COMPASS_LISTEN_DATABASE_URL", listenURL ?? url,
                applicationName: Self.listenApplicationName),
            jwtSecret: secret)
        if let keys = environment.string("COMPASS_JWT_SIGNING_KEYS") {
            do throws(SigningKeyError) {
                try SigningKeySet.check(keys)
            } catch {
                throw ConfigurationError("COMPASS_JWT_SIGNING_KEYS", problem: error.problem)
            }
            jwtSigningKeys = keys
        }
        host = environment.string("COMPASS_WORKER_HOST") ?? host
        port = try environment.integer("COMPASS_WORKER_PORT", in: 0...65535) ?? port
        logLevel = try environment.logLevel("LOG_LEVEL") ?? logLevel
        if let format = environment.string("COMPASS_LOG_FORMAT") {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else {
                throw ConfigurationError("COMPASS_LOG_FORMAT", value: format, problem: "is neither text nor json")
            }
            logFormat = parsed
        }
        http = try HTTPLimits(reading: environment)
        poolSize = try environment.positiveInteger("COMPASS_DB_POOL_SIZE") ?? poolSize
        poolCheckoutTimeout = try environment.seconds("COMPASS_DB_POOL_TIMEOUT_SECONDS") ?? poolCheckoutTimeout
        if let size = try environment.nonNegativeInteger("COMPASS_DB_STATEMENT_CACHE_SIZE") {
            database.preparedStatementCacheSize = size
        }
        if let list = environment.string("COMPASS_CORS_ALLOWED_ORIGINS") { cors = try CORSPolicy(list) }
        if let list = environment.string("COMPASS_TRUSTED_PROXIES") {
            do {
                trustedProxies = try TrustedProxies(list)
            } catch {
                throw ConfigurationError(
                    "COMPASS_TRUSTED_PROXIES", value: error.entry, problem: "is neither an IP address nor a CIDR range")
            }
        }
        auth = try AuthConfiguration(reading: environment)
        // Mailed links point here unless the public address differs (a proxy, TLS in front).
        auth.externalURL = auth.externalURL ?? "http://\(host):\(port)"
        rest = try RESTConfiguration(reading: environment)
        rest.openAPI.version = CompassVersion.current
        appAPI = try AppAPIConfiguration(reading: environment)
        realtime = try RealtimeConfiguration(reading: environment)
    }

    /// A connection URL read from `variable`; the parser's message leaves out the URL's text (it may hold a password).
    private static func connection(
        _ variable: String, _ url: String, applicationName: String
    ) throws(ConfigurationError) -> PostgresConfiguration {
        do {
            return try PostgresConfiguration(url: url, applicationName: applicationName)
        } catch {
            throw ConfigurationError(variable, problem: "is not a valid connection URL (\(error))")
        }
    }

    /// The realtime URL clients are given (`ws://host:port/realtime/v1`).
    public func realtimeURL(port: Int? = nil) -> String {
        "ws://\(host):\(port ?? self.port)/realtime/v1"
    }
}
