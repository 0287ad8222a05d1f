import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Postgres
import ServiceLifecycle

/// `/auth/v1`: Supabase Auth (GoTrue), so `supabase.auth.signUp/signInWithPassword/refreshSession/signOut`
/// work unchanged.
///
/// ```swift
/// let auth = try await AuthAPI(context: context, secret: secret, configuration: settings.auth)
/// auth.addRoutes(to: router)
/// ```
/// Each request passes the gateway's API-key check first (middleware); the user's access token
/// (a bearer) is verified here and its session must still exist.
public struct AuthAPI: CompassAPI {
    /// The SQL side (also used by `compass users`).
    public let store: AuthStore
    /// Sessions and refresh-token rotation.
    public let sessions: SessionIssuer
    let configuration: AuthConfiguration
    let verifier: AccessTokenVerifier
    let limiter: SignInRateLimiter
    /// Mailed links and codes: their tokens, their mails, where they may redirect.
    let oneTimeKeys: OneTimeTokenKey
    let mailer: AuthMailer
    let redirects: RedirectPolicy
    let logger: Logger
    /// `/.well-known/jwks.json`: the signing keys' public halves (none for HS256 alone).
    let publishedKeys: String
    /// Auth's own connections: sign-in keeps working while REST holds every shared one.
    public let pool: PostgresPool
    /// Two more for the rate counters alone (see ``AuthStore/counterPool``).
    public let counterPool: PostgresPool
    /// The server's budget for request bodies being read.
    let bodyBudget: ByteBudget

    /// Builds the API on the server's shared pool, signing sessions with `secret`.
    public init(context: ServerContext, secret: String, configuration: AuthConfiguration = AuthConfiguration()) async throws {
        pool = context.makePool(size: configuration.poolSize)
        counterPool = context.makePool(size: 2)
        bodyBudget = context.bodyBudget
        store = AuthStore(pool: pool, counterPool: counterPool)
        sessions = try await SessionIssuer(
            store: store, secret: secret, signingKey: context.signingKeys?.current, configuration: configuration, now: context.now)
        publishedKeys = context.signingKeys?.publishedJSON ?? SigningKeySet.emptyPublishedJSON
        self.configuration = configuration
        self.verifier = context.verifier
        limiter = SignInRateLimiter(store: store, configuration: configuration)
        oneTimeKeys = OneTimeTokenKey(secret: secret)
        mailer = AuthMailer(configuration: configuration, store: store, keys: oneTimeKeys, logger: context.logger)
        redirects = RedirectPolicy(configuration: configuration)
        self.logger = context.logger
    }

    public var resources: [any Service] { [pool, counterPool] }

    /// Adds every `/auth/v1` route, behind the gateway, GoTrue's error replies and its API-version header.
    public func addRoutes(to router: Router<CompassRequestContext>) {
        let api = self
        // Public keys are public: verifiers elsewhere fetch them without the project's API key.
        router.group("/auth/v1").add(middleware: AuthAPIVersionMiddleware())
            .get(".well-known/jwks.json") { _, _ in api.jwks() }
        let group = router.group("/auth/v1")
            .add(middleware: ErrorReplyMiddleware(AuthError.translating))
            .add(middleware: AuthAPIVersionMiddleware())
            .add(middleware: APIKeyMiddleware(verifier: verifier))
        group.get("health") { _, _ in api.health() }
        group.get("settings") { _, _ in api.settings() }
        group.post("signup") { request, context in try await api.signUp(request, address: context.clientAddress) }
        group.post("token") { request, context in try await api.token(request, address: context.clientAddress) }
        group.get("user") { request, _ in try await api.currentUser(request) }
        group.put("user") { request, _ in try await api.updateCurrentUser(request) }
        group.post("logout") { request, _ in try await api.logout(request) }
        group.post("recover") { request, _ in try await api.recover(request) }
        group.post("otp") { request, _ in try await api.otp(request) }
        group.post("resend") { request, _ in try await api.resend(request) }
        group.get("reauthenticate") { request, _ in try await api.reauthenticate(request) }
        group.get("verify") { request, context in try await api.verifyLink(request, address: context.clientAddress) }
        group.post("verify") { request, context in try await api.verifyCode(request, address: context.clientAddress) }
        api.addMFARoutes(to: group)
        api.addAdminRoutes(to: group)
        api.addAdminFactorRoutes(to: group)
        api.addOAuthClientRoutes(to: group)
        api.addDisabledFeatureRoutes(to: group)
    }

    /// The body decoded as `T`: 413 past the limit, 400 bad_json when it is not the expected JSON,
    /// 400 validation_failed when a field holds a NUL character.
    func decodeBody<T: AuthRequestBody>(_ request: Request, as type: T.Type = T.self) async throws(AuthError) -> T {
        try decode(try await collectBody(request), as: T.self)
    }

    /// The same, or nil when the request has no body (GoTrue reads some bodies only when present).
    func decodeOptionalBody<T: AuthRequestBody>(_ request: Request, as type: T.Type = T.self) async throws(AuthError) -> T? {
        let buffer = try await collectBody(request)
        guard buffer.readableBytes > 0 else { return nil }
        return try decode(buffer, as: T.self)
    }

    private func collectBody(_ request: Request) async throws(AuthError) -> ByteBuffer {
        do {
            return try await request.collectBody(upTo: configuration.maximumBodyBytes, budget: bodyBudget)
        } catch let error as BodyTooLarge {
            throw .tooLarge(error.limit)
        } catch let error as BodyBudgetExhausted {
            throw AuthError(.serviceUnavailable, "server_busy", error.description)
        } catch {
            throw .badJSON()
        }
    }

    private func decode<T: AuthRequestBody>(_ buffer: ByteBuffer, as type: T.Type) throws(AuthError) -> T {
        if let problem = JSONNesting.problem(in: buffer.readableBytesView) { throw .badJSON(detail: problem) }
        let body: T
        do {
            body = try Self.bodyDecoder.decode(T.self, from: Data(buffer.readableBytesView))
        } catch {
            throw .badJSON()
        }
        try body.refuseNULCharacters()
        return body
    }

    /// Reads a body's own fields in any case (`"Email"` is `email`), as Go's `encoding/json` matches
    /// struct fields; keys inside its values (metadata) are kept as sent. Fields given twice in
    /// different cases are refused before this (``JSONNesting/strictnessProblem(in:)``).
    private static var bodyDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let key = path[path.count - 1]
            guard path.count == 1 else { return key }
            return BodyField(stringValue: key.stringValue.lowercased())
        }
        return decoder
    }

    /// A top-level field name, lower-cased.
    private struct BodyField: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// `GET /health`.
    func health() -> Response {
        JSONReply.text(#"{"description":"Compass's GoTrue-compatible auth API","name":"GoTrue","version":"compass"}"#)
    }

    /// `GET /.well-known/jwks.json`: the signing keys' public JWKs, cacheable for ten minutes
    /// (so a new key is listed second for that long before it moves first and signs).
    func jwks() -> Response {
        JSONReply.text(publishedKeys, headers: [.cacheControl: "public, max-age=600"])
    }

    /// `GET /settings`: which sign-in methods exist.
    func settings() -> Response {
        JSONReply.text("""
            {"disable_signup":false,"external":{"anonymous_users":\(configuration.anonymousUsers),"apple":false,"email":true,"github":false,\
            "google":false,"phone":false},"mailer_autoconfirm":\(configuration.autoconfirm),"phone_autoconfirm":false,\
            "sms_provider":"","saml_enabled":false}
            """)
    }

    /// A normalised (lower-cased), checked email address (sign-up, admin, `compass users`).
    public static func email(_ raw: String?) throws(AuthError) -> String {
        // As sent, as GoTrue reads it: an address with spaces around it is not valid, at sign-up as at sign-in.
        let email = (raw ?? "").lowercased()
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 255, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: \.isWhitespace)
        else { throw .invalidEmail }
        return email
    }

    /// A phone number as GoTrue keeps it: E.164 digits without the `+` or spaces
    /// (`+1 555 0100` → `15550100`), 2 to 15 digits, the first not 0.
    static func phone(_ raw: String) throws(AuthError) -> String {
        var digits = raw.hasPrefix("+") ? Substring(raw.dropFirst()) : Substring(raw)
        digits.removeAll { $0 == " " }
        guard (2...15).contains(digits.utf8.count), digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
            digits.utf8.first != 0x30
        else { throw .validation("Invalid phone number format (E.164 required)") }
        return String(digits)
    }

    /// Refuses a password shorter than the minimum.
    func checkStrength(_ password: String) throws(AuthError) {
        try configuration.checkStrength(password)
    }
}
