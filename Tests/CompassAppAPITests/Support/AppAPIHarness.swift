import CompassAppAPI
import CompassHTTP
import CompassTestSupport
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Postgres

/// `/api` on an in-process router over a fresh demo database, with the real pool, keys and tokens.
struct AppAPIHarness {
    static let secret = "app-api-tests-secret-0123456789abcdef"
    static let maria = UUID(uuidString: "a1000000-0000-4000-8000-000000000001")!
    static let sofia = UUID(uuidString: "a1000000-0000-4000-8000-000000000003")!
    static let grace = UUID(uuidString: "a1000000-0000-4000-8000-000000000004")!
    static let marcus = UUID(uuidString: "a1000000-0000-4000-8000-000000000005")!
    static let lily = UUID(uuidString: "a1000000-0000-4000-8000-000000000006")!
    static let rivera = UUID(uuidString: "f1000000-0000-4000-8000-000000000001")!
    static let chen = UUID(uuidString: "f1000000-0000-4000-8000-000000000002")!

    let database: TestDatabase
    let api: AppAPI
    /// The pool `/api` leases from (one connection, so its round trips can be counted).
    let pool: PostgresPool
    let client: any TestClientProtocol
    let keys: APIKeys
    let issuer: AccessTokenIssuer
    /// The server's clock, fixed (whole seconds) so the CLI can be given the same instant with `--now`.
    let now: Date

    /// One reply: status, raw body, and the body parsed as JSON.
    struct Reply {
        var status: HTTPResponse.Status
        var text: String
        var contentType: String?

        var json: Any? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var code: String? { object["code"] as? String }
    }

    /// Runs `body` with a router serving `/api` over a fresh demo database.
    static func with(_ body: @escaping @Sendable (AppAPIHarness) async throws -> Void) async throws {
        try await TestDatabase.with(demoData: true) { database in
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let context = try await ServerContext(
                postgres: database.configuration, jwtSecret: secret, poolSize: 1, logger: TestDatabase.logger, now: { now })
            let pool = context.pool
            let api = AppAPI(context: context)
            let router = Router(context: CompassRequestContext.self)
            api.addRoutes(to: router)
            let keys = try APIKeys(secret: secret)
            let issuer = try await AccessTokenIssuer(secret: secret)
            try await pool.withRunning { pool in
                try await Application(router: router).test(.router) { client in
                    try await body(AppAPIHarness(
                        database: database, api: api, pool: pool, client: client, keys: keys, issuer: issuer, now: now))
                }
            }
        }
    }

    /// Database round trips `body` causes on the pool's one connection.
    func roundTrips(_ body: () async throws -> Void) async throws -> Int {
        let before = try await pool.withConnection { await $0.roundTrips }
        try await body()
        return try await pool.withConnection { await $0.roundTrips } - before
    }

    /// A user's access token (one hour).
    func token(for user: UUID) async throws -> String {
        try await issuer.token(role: .authenticated, subject: user.uuidString.lowercased(), lifetime: 3600)
    }

    /// Sends a request as `user` with the anon apikey; `bearer` overrides the user's token, `omitKey` drops the key.
    func send(
        _ method: HTTPRequest.Method, _ path: String, as user: UUID? = nil, bearer: String? = nil,
        omitKey: Bool = false, json body: String? = nil
    ) async throws -> Reply {
        var headers: HTTPFields = [:]
        if !omitKey { headers[HTTPField.Name("apikey")!] = keys.anon }
        var token = bearer
        if token == nil, let user { token = try await self.token(for: user) }
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            Reply(status: response.status, text: String(buffer: response.body), contentType: response.headers[.contentType])
        }
    }

    /// Runs one statement as the service role (bypassing RLS) to set up or check the data.
    func adminQuery(_ query: PostgresQuery) async throws -> PostgresResult {
        try await database.query(query)
    }

    /// The ids of the interactions `user` logged.
    func interactionIds(loggedBy user: UUID) async throws -> [UUID] {
        try await adminQuery("SELECT id FROM interactions WHERE logged_by = \(user) ORDER BY id").map { try $0.decode(UUID.self, at: 0) }
    }

    /// `--now <the server's instant>`, for the commands whose output depends on the clock.
    var nowArguments: [String] { ["--now", now.formatted(.iso8601)] }

    /// Runs the `compass` binary on this database.
    func compass(_ arguments: [String]) async throws -> CompassBinary.Run {
        try await CompassBinary.run(arguments, database: database)
    }
}
