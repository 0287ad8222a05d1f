import CLibPQ
import Foundation

/// Where and how to connect: a parsed `DATABASE_URL` (URL or keyword form).
///
/// ```swift
/// let config = try PostgresConfiguration(url: "postgresql://app@localhost:5432/compass")
/// ```
public struct PostgresConfiguration: Sendable {
    /// The libpq keywords and values, as parsed; the password stays in here and never in messages.
    private(set) var parameters: [(key: String, value: String)]

    /// How many statements each connection keeps prepared (``PostgresQuery/prepared``); 0 prepares
    /// none, for any pooler in transaction mode (PgBouncer's, whatever its version), where a
    /// session's prepared statements do not follow its transactions. Each holds a plan in the
    /// server's memory; REST requests of many shapes take slots too, least recently used first out.
    public var preparedStatementCacheSize = 128

    /// Host name, IP address or unix-socket directory, for messages.
    public var host: String { value(for: "hostaddr") ?? value(for: "host") ?? "localhost" }
    /// Port number, for messages.
    public var port: String { value(for: "port") ?? "5432" }
    /// The role we log in as, for messages.
    public var user: String { value(for: "user") ?? defaultUser }
    /// The database name, for messages.
    public var database: String { value(for: "dbname") ?? user }
    /// `host:port`, the way errors name the server.
    public var endpoint: String { "\(host):\(port)" }

    /// Parses a `postgresql://` URL or a `key=value` connection string.
    ///
    /// A malformed string throws a ``PostgresError`` with code `.invalidConfiguration` that says
    /// what is wrong (libpq's message, or a scheme other than `postgresql://`/`postgres://`)
    /// with the password, wherever it appears, replaced by `****`.
    public init(url: String, applicationName: String = "compass") throws {
        let redaction = ConnectionStringRedaction(url)
        // libpq would read `http://…` as a database name and fail later with a confusing message.
        if let scheme = url.range(of: "://"), !["postgresql", "postgres"].contains(url[..<scheme.lowerBound].lowercased()) {
            throw PostgresError(
                code: .invalidConfiguration,
                message: "malformed database URL: the scheme is \"\(redaction.apply(to: String(url[..<scheme.lowerBound])))\", "
                    + "not postgresql:// or postgres://")
        }
        var errorMessage: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(url, &errorMessage) else {
            let reason = errorMessage.map { String(cString: $0) } ?? "out of memory"
            if let errorMessage { PQfreemem(errorMessage) }
            let firstLine = reason.split(separator: "\n").first.map(String.init) ?? reason
            throw PostgresError(
                code: .invalidConfiguration,
                message: "malformed database URL: \(redaction.apply(to: firstLine).trimmingCharacters(in: .whitespaces))"
            )
        }
        defer { PQconninfoFree(options) }
        var parameters: [(key: String, value: String)] = []
        var option = options
        while let keyword = option.pointee.keyword {
            if let value = option.pointee.val {
                parameters.append((String(cString: keyword), String(cString: value)))
            }
            option += 1
        }
        self.parameters = parameters
        if value(for: "application_name") == nil { set("application_name", applicationName) }
        if value(for: "connect_timeout") == nil { set("connect_timeout", "10") }
        // Decoding relies on ISO dates in UTC whatever the server's defaults are.
        let pinned = "-c TimeZone=UTC -c DateStyle=ISO,MDY -c IntervalStyle=postgres -c extra_float_digits=3"
        set("options", [value(for: "options"), pinned].compactMap { $0 }.joined(separator: " "))
    }

    /// The value of one libpq keyword, if the URL set it.
    public func value(for keyword: String) -> String? {
        parameters.last { $0.key == keyword }?.value
    }

    mutating func set(_ keyword: String, _ value: String) {
        parameters.removeAll { $0.key == keyword }
        parameters.append((keyword, value))
    }

    private var defaultUser: String {
        if let user = getenv("PGUSER") { return String(cString: user) }
        if let user = getenv("USER") { return String(cString: user) }
        return "postgres"
    }
}

/// Printed without its password or any other secret: services holding a configuration are
/// described in logs (swift-service-lifecycle's "Starting service" at debug level).
extension PostgresConfiguration: CustomStringConvertible, CustomDebugStringConvertible {
    public var description: String { "PostgresConfiguration(\(user)@\(endpoint)/\(database))" }
    public var debugDescription: String { description }
}
