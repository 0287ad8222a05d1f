import Logging
import PostgresNIO

/// The peer: the same statements sent through PostgresNIO, the way a PostgresNIO app runs a
/// scoped read — each of the three sources in its own transaction (`BEGIN`, the scope
/// statement, the query, `COMMIT`) on its own pooled connection, all three at once, then the
/// school lookup the same way. Rows are read but not decoded, so this is NIO's best case.
struct PostgresNIOPeer: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// A client for the same server, user and database the benchmark's own connection uses.
    init(host: String, port: Int, user: String, password: String?, database: String, logger: Logger) {
        let configuration =
            if host.hasPrefix("/") {
                PostgresClient.Configuration(
                    unixSocketPath: "\(host)/.s.PGSQL.\(port)", username: user, password: password, database: database)
            } else {
                PostgresClient.Configuration(
                    host: host, port: port, username: user, password: password, database: database, tls: .disable)
            }
        self.client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
    }

    /// Runs one round trip's segments (each `[scope, statement]`) concurrently; returns the rows read.
    func run(segments: [[(sql: String, binds: [String?])]]) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for segment in segments {
                group.addTask { try await self.transaction(segment) }
            }
            return try await group.reduce(0, +)
        }
    }

    private func transaction(_ statements: [(sql: String, binds: [String?])]) async throws -> Int {
        try await client.withTransaction(logger: logger) { connection in
            var rows = 0
            for statement in statements {
                var bindings = PostgresBindings(capacity: statement.binds.count)
                for bind in statement.binds {
                    // Untyped text, as the project's client binds: Postgres infers each type from the SQL.
                    try bindings.append(bind.map(UntypedText.init))
                }
                let result = try await connection.query(
                    PostgresQuery(unsafeSQL: statement.sql, binds: bindings), logger: logger)
                for try await _ in result { rows += 1 }
            }
            return rows
        }
    }
}

/// A bind in text format with no type (`unknown`), which Postgres types from the statement.
struct UntypedText: PostgresDynamicTypeEncodable {
    var text: String

    var psqlType: PostgresDataType { .unknown }
    var psqlFormat: PostgresFormat { .text }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        byteBuffer.writeString(text)
    }
}
