import CompassTokens
import Crypto
import Foundation
import Postgres

/// Sessions: starting one, rotating its refresh token, and GoTrue's reuse detection.
///
/// A refresh token is opaque: a session's first is random, each successor is an HMAC of its
/// predecessor under the JWT secret. Only SHA-256 hashes are stored, yet a client replaying a
/// just-rotated token within the grace interval can be handed the session's current token
/// again (derived from the replayed one). The active token's direct parent gets it back at any
/// time, as GoTrue does for a client that lost a refresh reply; any other replay after the
/// interval ends the whole session. The clock is injectable so tests can step past the interval.
public struct SessionIssuer: Sendable {
    let store: AuthStore
    let issuer: AccessTokenIssuer
    let configuration: AuthConfiguration
    let derivationKey: SymmetricKey
    /// The current time.
    let now: @Sendable () -> Date

    /// An issuer signing access tokens with `signingKey` (ES256/RS256 with its `kid`), else with `secret` (HS256).
    public init(
        store: AuthStore, secret: String, signingKey: SigningKey? = nil, configuration: AuthConfiguration,
        now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        self.store = store
        self.issuer = try await AccessTokenIssuer(secret: secret, signingKey: signingKey)
        self.configuration = configuration
        self.derivationKey = SymmetricKey(data: SHA256.hash(data: Data(("compass refresh tokens:" + secret).utf8)))
        self.now = now
    }

    /// Starts a session for `user` (sign-in, sign-up with autoconfirm, a verified mail), signed
    /// in by `method` (the `amr` claim's: `password`, `otp`).
    ///
    /// No session starts for an account an admin banned (`banned_until` still ahead) or
    /// soft-deleted: every way of signing in (password, link or code, PKCE exchange) comes
    /// through here, and the account's row is held until the session is committed.
    func startSession(for user: AuthUser, method: String = "password", on tx: PostgresConnection) async throws -> AuthSession {
        guard let userID = UUID(uuidString: user.id) else { throw AuthError.internalError }
        switch try await store.accountState(userID: userID, on: tx) {
        case .usable: break
        case .gone: throw AuthError.invalidCredentials
        case .banned: throw AuthError.userBanned
        }
        let time = now()
        let token = SessionIssuer.randomToken()
        let session = try await store.createSession(
            userID: userID, tokenHash: SessionIssuer.hash(token), method: method, now: time, on: tx)
        return try await makeSession(
            user: user, sessionID: session, refreshToken: token,
            assurance: .firstFactor(method, at: time))
    }

    /// The session's reply after its assurance changed (a second factor verified): a new
    /// refresh token replaces the session's current one, and the access token carries the
    /// level and methods now stored for it.
    func reissue(session: UUID, for user: AuthUser, on tx: PostgresConnection) async throws -> AuthSession {
        guard let userID = UUID(uuidString: user.id), let assurance = try await store.assurance(session: session, on: tx) else {
            throw AuthError.sessionNotFound
        }
        let token = SessionIssuer.randomToken()
        try await store.replaceRefreshToken(
            session: session, userID: userID, newHash: SessionIssuer.hash(token), now: now(), on: tx)
        return try await makeSession(user: user, sessionID: session, refreshToken: token, assurance: assurance)
    }

    /// `grant_type=refresh_token`: rotates `token`, or answers a replay as GoTrue does.
    func refresh(_ token: String) async throws -> AuthSession {
        let outcome: Result<AuthSession, AuthError> = try await store.transaction { tx in
            let presented = SessionIssuer.hash(token)
            guard let row = try await store.lockToken(hash: presented, on: tx) else { return .failure(.refreshTokenNotFound) }
            guard let user = try await store.user(id: row.userID, on: tx) else { return .failure(.refreshTokenNotFound) }
            let time = now()
            if !row.revoked {
                let next = derive(from: token)
                try await store.rotate(row, parentHash: presented, newHash: SessionIssuer.hash(next), now: time, on: tx)
                return .success(try await makeSession(user: user, sessionID: row.sessionID, refreshToken: next, assurance: row.assurance))
            }
            let active = try await store.activeTokenHash(session: row.sessionID, on: tx)
            let child = derive(from: token)
            // As GoTrue: the direct parent of the active token gets it back however late (its
            // client lost the reply to its refresh); older tokens only within the interval.
            if let active, SessionIssuer.hash(child) == active {
                return .success(try await makeSession(user: user, sessionID: row.sessionID, refreshToken: child, assurance: row.assurance))
            }
            if time.timeIntervalSince(row.updatedAt) <= configuration.refreshReuseInterval, let active,
                let current = descendant(of: token, hashing: active)
            {
                return .success(try await makeSession(user: user, sessionID: row.sessionID, refreshToken: current, assurance: row.assurance))
            }
            // A replay past the grace interval: the token may have leaked, so end the session.
            try await store.deleteSession(row.sessionID, on: tx)
            return .failure(.refreshTokenAlreadyUsed)
        }
        return try outcome.get()
    }

    /// A session reply: a fresh access token for `user` in `sessionID`.
    func makeSession(user: AuthUser, sessionID: UUID, refreshToken: String, assurance: SessionAssurance) async throws
        -> AuthSession
    {
        let claims = SessionClaims(
            user: user, sessionID: sessionID, assurance: assurance, issuer: configuration.issuer, now: now(),
            lifetime: configuration.jwtExpiry)
        return AuthSession(
            accessToken: try await issuer.sign(claims), expiresIn: configuration.jwtExpiry, expiresAt: claims.exp,
            refreshToken: refreshToken, user: user)
    }

    /// The successor of `token`.
    func derive(from token: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(token.utf8), using: derivationKey)
        return Data(Data(mac).prefix(18)).base64URLEncoded
    }

    /// The descendant of `token` whose hash is `hash` (a few rotations at most within the interval).
    func descendant(of token: String, hashing hash: String) -> String? {
        var candidate = token
        for _ in 0..<32 {
            candidate = derive(from: candidate)
            if SessionIssuer.hash(candidate) == hash { return candidate }
        }
        return nil
    }

    /// 144 random bits, URL-safe.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<18).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64URLEncoded
    }

    /// What is stored of a token: its hex SHA-256.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hexString
    }

}
