import CompassHTTP
import CompassREST
import CompassTestSupport
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Postgres

/// The `/rest/v1` routes on their own router over a fresh demo database, served on a local
/// port and driven over real HTTP.
struct RESTHarness {
    static let secret = "rest-tests-secret-0123456789abcdef0123"
    let database: TestDatabase
    let api: RESTAPI
    /// The pool the routes use (to reach their connections behind the API's back).
    let pool: PostgresPool
    let client: any TestClientProtocol
    let keys: APIKeys
    let issuer: AccessTokenIssuer

    /// Runs `body` with a client for the REST routes (and the schema reload service running).
    static func with(
        configuration: RESTConfiguration = RESTConfiguration(), poolSize: Int = 4,
        _ body: @escaping @Sendable (RESTHarness) async throws -> Void
    ) async throws {
        try await TestDatabase.with(demoData: true) { database in
            let context = try await ServerContext(
                postgres: database.configuration, jwtSecret: secret, poolSize: poolSize, logger: TestDatabase.logger)
            let pool = context.pool
            let api = RESTAPI(context: context, configuration: configuration)
            let router = Router(context: CompassRequestContext.self)
            api.addRoutes(to: router)
            let keys = try APIKeys(secret: secret)
            let issuer = try await AccessTokenIssuer(secret: secret)
            try await pool.withRunning { _ in
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    tasks.addTask { try await api.reloadService.run() }
                    try await waitUntilListening(database)
                    let application = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
                    try await application.test(.live) { client in
                        try await body(RESTHarness(database: database, api: api, pool: pool, client: client, keys: keys, issuer: issuer))
                    }
                    tasks.cancelAll()
                }
            }
        }
    }

    /// Waits until the reload service LISTENs: a test's `NOTIFY pgrst` sent before would be lost
    /// (under a loaded machine the service connects after the test has begun).
    private static func waitUntilListening(_ database: TestDatabase) async throws {
        let connection = try await database.connect()
        let deadline = ContinuousClock.now + .seconds(30)
        while try await connection.query(
            """
            SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN "pgrst"'
            """)[0].decode(Int.self, at: 0) == 0
        {
            guard ContinuousClock.now < deadline else {
                await connection.close()
                throw HarnessError("the schema reload service never listened")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        await connection.close()
    }

    /// An access token for a demo user.
    func token(_ user: UUID, lifetime: TimeInterval = 600) async throws -> String {
        try await issuer.token(role: .authenticated, subject: user.uuidString.lowercased(), lifetime: lifetime)
    }

    /// Sends a request with the anon key and `token` (if any) as the bearer.
    func request(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, headers: [String: String] = [:], body: String? = nil
    ) async throws -> RESTResponse {
        var fields: HTTPFields = [HTTPField.Name("apikey")!: keys.anon]
        if let token { fields[.authorization] = "Bearer \(token)" }
        if body != nil { fields[.contentType] = "application/json" }
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        return try await client.execute(
            uri: "/rest/v1/" + Self.encodingUnsafeCharacters(path), method: method, headers: fields, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            RESTResponse(
                status: Int(response.status.code), headers: response.headers, body: String(buffer: response.body),
                bytes: Array(response.body.readableBytesView))
        }
    }

    /// `path` with the characters a request line may not carry (`>`, space, quotes, braces…)
    /// percent-encoded, as HTTP clients send them; `%` escapes already there are kept.
    static func encodingUnsafeCharacters(_ path: String) -> String {
        let unsafe: Set<Character> = [" ", "\"", "<", ">", "{", "}", "|", "\\", "^", "`"]
        return path.map { character in
            guard unsafe.contains(character) else { return String(character) }
            return character.utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined()
        }.joined()
    }

    /// A superuser query on the test database (fixtures and checks that bypass RLS).
    func adminQuery(_ query: PostgresQuery) async throws -> PostgresResult {
        try await database.query(query)
    }

    /// A count as the superuser sees it.
    func count(_ query: PostgresQuery) async throws -> Int {
        try await adminQuery(query)[0].decode(Int.self, at: 0)
    }
}

/// What a test looks at in a reply (a failed expectation prints its status, headers and body, not the bytes again).
struct RESTResponse: Sendable, CustomStringConvertible {
    var status: Int
    var headers: HTTPFields
    var body: String
    /// The body as it came, for replies that are not text.
    var bytes: [UInt8] = []

    var description: String { "RESTResponse(status: \(status), headers: \(headers), body: \(body.prefix(2000)))" }

    func header(_ name: String) -> String? { headers[HTTPField.Name(name)!] }

    /// The body as JSON.
    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) }
    var array: [[String: Any]] { json as? [[String: Any]] ?? [] }
    var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// Whether this is PostgREST's error body: exactly the four keys, and the given code.
    func isError(_ code: String, status expected: Int) -> Bool {
        status == expected && Set(object.keys) == ["code", "message", "details", "hint"] && object["code"] as? String == code
    }
}
