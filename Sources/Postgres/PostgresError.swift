import Foundation

/// An error from the server, from libpq, or from this client.
///
/// It carries the server's diagnostic fields, the SQL text (with `$n`
/// placeholders, never the bound values) and the call site. `description`
/// is safe to log: bound values are redacted from the server message and the
/// `detail` field (which often quotes row data) is left out.
public struct PostgresError: Error, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case invalidConfiguration, connectionFailed, connectionLost, server
            case pipelineAborted, poolTimeout, poolClosed, closed, unexpectedResult
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The connection string could not be parsed.
        public static let invalidConfiguration = Code(.invalidConfiguration)
        /// The server could not be reached or refused the login.
        public static let connectionFailed = Code(.connectionFailed)
        /// The connection broke while in use.
        public static let connectionLost = Code(.connectionLost)
        /// The server answered with an error (see `sqlState`).
        public static let server = Code(.server)
        /// A pipelined statement skipped because an earlier one in the same batch failed.
        public static let pipelineAborted = Code(.pipelineAborted)
        /// No pooled connection became free within the checkout timeout.
        public static let poolTimeout = Code(.poolTimeout)
        /// The pool was shut down.
        public static let poolClosed = Code(.poolClosed)
        /// The connection was closed by this process.
        public static let closed = Code(.closed)
        /// The server's answer did not have the expected shape.
        public static let unexpectedResult = Code(.unexpectedResult)

        public var description: String { base.rawValue }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The server's SQLSTATE; nil for errors raised inside libpq or this client.
    public var sqlState: SQLState?
    /// The primary message, as the server or libpq wrote it.
    public var message: String
    /// The server's detail line (may quote row data; not in `description`).
    public var detail: String?
    /// The server's hint.
    public var hint: String?
    /// The violated constraint, for integrity errors.
    public var constraint: String?
    /// The schema of the table involved.
    public var schema: String?
    /// The table involved.
    public var table: String?
    /// The column involved.
    public var column: String?
    /// The server function that raised the error (not translated, unlike `message`).
    public var routine: String?
    /// True when a cached prepared statement was gone or stale: nothing ran, so the caller may
    /// roll back and run the same work again (it is prepared afresh).
    public internal(set) var isStalePreparedStatement = false
    /// The SQL text with `$n` placeholders.
    public var query: String?
    /// For pipelines: the zero-based index of the statement this error belongs to.
    public var statementIndex: Int?
    /// For pipelines: the index of the statement whose failure aborted this one.
    public var failedStatementIndex: Int?
    /// The caller's file (`#fileID`).
    public var file: String
    /// The caller's line.
    public var line: Int
    /// The message with bound values cut out, used by `description`.
    var redactedMessage: String

    /// Makes an error; `binds` are only used to redact the message.
    public init(
        code: Code,
        message: String,
        sqlState: SQLState? = nil,
        query: String? = nil,
        binds: [String?] = [],
        file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.sqlState = sqlState
        self.message = message
        self.query = query
        self.file = file
        self.line = line
        self.redactedMessage = Self.redact(message, binds: binds)
    }

    public var description: String {
        var parts = [redactedMessage]
        if let sqlState { parts.append("SQLSTATE \(sqlState)") }
        if let constraint { parts.append("constraint \(constraint)") }
        if let table { parts.append("table \(schema.map { "\($0)." } ?? "")\(table)") }
        if let statementIndex { parts.append("statement \(statementIndex)") }
        if let failedStatementIndex { parts.append("aborted by statement \(failedStatementIndex)") }
        return parts.joined(separator: "; ")
    }

    public var debugDescription: String {
        var text = "PostgresError(code: \(code), \(description)"
        if let detail { text += ", detail: \(detail)" }
        if let hint { text += ", hint: \(hint)" }
        if let column { text += ", column: \(column)" }
        if let query { text += ", query: \(query)" }
        return text + ", at \(file):\(line))"
    }

    /// Cuts every bound value of 2+ characters out of a server message
    /// (`invalid input syntax for type uuid: "…"` would otherwise echo input).
    static func redact(_ message: String, binds: [String?]) -> String {
        var result = message
        for case let value? in binds where value.count >= 2 {
            result = result.replacingOccurrences(of: value, with: "…")
        }
        return result
    }
}

/// A column value that could not be turned into the requested Swift type.
public struct PostgresDecodingError: Error, Sendable, CustomStringConvertible {
    /// The column's name.
    public var column: String
    /// The column's zero-based position.
    public var columnIndex: Int
    /// The Swift type we tried to produce.
    public var swiftType: String
    /// The column's Postgres type name.
    public var postgresType: String
    /// Why it failed (never the value itself).
    public var reason: String

    public var description: String {
        "cannot decode column \"\(column)\" (#\(columnIndex), \(postgresType)) as \(swiftType): \(reason)"
    }
}
