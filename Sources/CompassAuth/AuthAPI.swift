import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Postgres

/// `/auth/v1`: Supabase Auth (GoTrue), so `supabase.auth.signUp/signInWithPassword/refreshSession/signOut`
/// work unchanged.
///
/// ```swift
/// let auth = try await AuthAPI(pool: server.pool, secret: secret, verifier: verifier, logger: logger)
/// auth.addRoutes(to: router)
/// ```
/// Each request passes the gateway's API-key check first; the user's access token (a bearer)
/// is verified here and its session must still exist.
public struct AuthAPI: Sendable {
    /// The SQL side (also used by `compass users`).
    public let store: AuthStore
    /// Sessions and refresh-token rotation.
    public let sessions: SessionIssuer
    let configuration: AuthConfiguration
    let gate: APIKeyGate
    let verifier: AccessTokenVerifier
    let limiter: SignInRateLimiter
    let logger: Logger

    /// Builds the API on the server's shared pool; `now` is injectable for tests of time.
    public init(
        pool: PostgresPool, secret: String, verifier: AccessTokenVerifier, configuration: AuthConfiguration = AuthConfiguration(),
        logger: Logger, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        store = AuthStore(pool: pool)
        sessions = try await SessionIssuer(store: store, secret: secret, configuration: configuration, now: now)
        self.configuration = configuration
        gate = APIKeyGate(verifier: verifier)
        self.verifier = verifier
        limiter = SignInRateLimiter(configuration: configuration)
        self.logger = logger
    }

    /// Adds every `/auth/v1` route.
    public func addRoutes(to router: Router<CompassRequestContext>) {
        let api = self
        router.get("/auth/v1/health") { request, _ in await api.handle(request) { api.health() } }
        router.get("/auth/v1/settings") { request, _ in await api.handle(request) { api.settings() } }
        router.post("/auth/v1/signup") { request, _ in await api.handle(request) { try await api.signUp(request) } }
        router.post("/auth/v1/token") { request, context in
            await api.handle(request) { try await api.token(request, address: context.clientAddress) }
        }
        router.get("/auth/v1/user") { request, _ in await api.handle(request) { try await api.currentUser(request) } }
        router.put("/auth/v1/user") { request, _ in await api.handle(request) { try await api.updateCurrentUser(request) } }
        router.post("/auth/v1/logout") { request, _ in await api.handle(request) { try await api.logout(request) } }
        api.addAdminRoutes(to: router)
    }

    /// The gateway check, then `body`; every failure becomes GoTrue's error reply.
    func handle(_ request: Request, _ body: () async throws -> Response) async -> Response {
        let versioned = (request.headers[AuthError.apiVersionHeader] ?? "") >= AuthError.apiVersion
        do {
            _ = try await gate.check(request)
        } catch {
            return error.response
        }
        do {
            var response = try await body()
            if versioned { response.headers[AuthError.apiVersionHeader] = AuthError.apiVersion }
            return response
        } catch let error as AuthError {
            return error.response(versioned: versioned)
        } catch {
            // PostgresError's description carries no bind values, so no password or token.
            logger.error("auth request failed: \(String(describing: error))", metadata: ["path": "\(request.uri.path)"])
            return AuthError.internalError.response(versioned: versioned)
        }
    }

    /// The body decoded as `T`: 413 past the limit, 400 bad_json when it is not the expected JSON.
    func decodeBody<T: Decodable>(_ request: Request, as type: T.Type = T.self) async throws(AuthError) -> T {
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: configuration.maximumBodyBytes)
        } catch let error as BodyTooLarge {
            throw .tooLarge(error.limit)
        } catch {
            throw .badJSON()
        }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch {
            throw .badJSON()
        }
    }

    /// `GET /health`.
    func health() -> Response {
        JSONReply.text(#"{"description":"Compass's GoTrue-compatible auth API","name":"GoTrue","version":"compass"}"#)
    }

    /// `GET /settings`: which sign-in methods exist.
    func settings() -> Response {
        JSONReply.text("""
            {"disable_signup":false,"external":{"anonymous_users":false,"apple":false,"email":true,"github":false,\
            "google":false,"phone":false},"mailer_autoconfirm":\(configuration.autoconfirm),"phone_autoconfirm":false,\
            "sms_provider":"","saml_enabled":false}
            """)
    }

    /// A normalised (trimmed, lower-cased), checked email address (sign-up, admin, `compass users`).
    public static func email(_ raw: String?) throws(AuthError) -> String {
        let email = (raw ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 255, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: \.isWhitespace)
        else { throw .invalidEmail }
        return email
    }

    /// Refuses a password shorter than the minimum.
    func checkStrength(_ password: String) throws(AuthError) {
        try configuration.checkStrength(password)
    }
}
