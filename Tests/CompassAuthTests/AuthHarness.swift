import CompassAuth
import CompassHTTP
import CompassTestSupport
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Postgres
import Synchronization

/// `/auth/v1` on an in-process router over a fresh demo database, with a clock the test moves,
/// and a second router (``peer``) standing for another worker process on the same database.
struct AuthHarness {
    static let secret = "auth-tests-secret-0123456789abcdef0123"
    static let demoPassword = "compass-demo-password"

    let database: TestDatabase
    let client: any TestClientProtocol
    /// Another worker's `/auth/v1`: its own ``AuthAPI``, pool and limiter, the same database.
    let peer: any TestClientProtocol
    let keys: APIKeys
    let clock: TestClock
    let verifier: AccessTokenVerifier

    /// A settable clock.
    final class TestClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    /// One reply: status, headers and the body parsed as a JSON object.
    struct Reply {
        var status: HTTPResponse.Status
        var text: String
        var headers: HTTPFields
        var object: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:] }
        var code: String? { object["code"] as? String }
        subscript(_ key: String) -> String? { object[key] as? String }
    }

    /// Runs `body` with a router serving `/auth/v1`.
    static func with(
        configuration: AuthConfiguration = AuthConfiguration(), _ body: @escaping @Sendable (AuthHarness) async throws -> Void
    ) async throws {
        try await TestDatabase.with(demoData: true) { database in
            let clock = TestClock()
            let context = try await ServerContext(
                postgres: database.configuration, jwtSecret: secret, poolSize: 2,
                // Generous: forty concurrent sign-ins share the auth pools and bcrypt with every other suite.
                poolCheckoutTimeout: .seconds(60), logger: TestDatabase.logger, now: { clock.now })
            let verifier = context.verifier
            let api = try await AuthAPI(context: context, secret: secret, configuration: configuration)
            let peerAPI = try await AuthAPI(context: context, secret: secret, configuration: configuration)
            let router = Router(context: CompassRequestContext.self)
            api.addRoutes(to: router)
            let keys = try APIKeys(secret: secret)
            try await runningPools([api.pool, peerAPI.pool, api.counterPool, peerAPI.counterPool]) {
                try await Application(router: router).test(.router) { client in
                    // Made here: a router is not Sendable, so it cannot be captured from outside.
                    let peerRouter = Router(context: CompassRequestContext.self)
                    peerAPI.addRoutes(to: peerRouter)
                    try await Application(router: peerRouter).test(.router) { peer in
                        try await body(
                            AuthHarness(
                                database: database, client: client, peer: peer, keys: keys, clock: clock, verifier: verifier))
                    }
                }
            }
        }
    }

    /// Runs `body` with every pool in `pools` running.
    private static func runningPools(_ pools: ArraySlice<PostgresPool>, _ body: () async throws -> Void) async throws {
        guard let first = pools.first else { return try await body() }
        try await first.withRunning { _ in try await runningPools(pools.dropFirst(), body) }
    }

    private static func runningPools(_ pools: [PostgresPool], _ body: () async throws -> Void) async throws {
        try await runningPools(pools[...], body)
    }

    /// Sends a request with the anon key (unless `key` says otherwise) and the clients' API-version
    /// header, to the first worker unless `onPeer`.
    func send(
        _ method: HTTPRequest.Method, _ path: String, bearer: String? = nil, key: String? = nil, json body: String? = nil,
        versioned: Bool = true, onPeer: Bool = false
    ) async throws -> Reply {
        var headers: HTTPFields = [:]
        headers[HTTPField.Name("apikey")!] = key ?? keys.anon
        if versioned { headers[HTTPField.Name("X-Supabase-Api-Version")!] = "2024-01-01" }
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        if body != nil { headers[.contentType] = "application/json" }
        return try await (onPeer ? peer : client).execute(
            uri: "/auth/v1" + path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            Reply(status: response.status, text: String(buffer: response.body), headers: response.headers)
        }
    }

    /// `grant_type=password`.
    func signIn(_ email: String, _ password: String, onPeer: Bool = false) async throws -> Reply {
        try await send(.post, "/token?grant_type=password", json: json(["email": email, "password": password]), onPeer: onPeer)
    }

    /// `grant_type=refresh_token`.
    func refresh(_ token: String) async throws -> Reply {
        try await send(.post, "/token?grant_type=refresh_token", json: json(["refresh_token": token]))
    }

    /// Runs one statement as the superuser, to check what was stored.
    func query(_ query: PostgresQuery) async throws -> PostgresResult {
        try await database.query(query)
    }
}

/// A flat JSON object of strings.
func json(_ fields: [String: String]) -> String {
    String(decoding: try! JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
}
