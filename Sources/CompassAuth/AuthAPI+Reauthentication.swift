import CompassHTTP
import Foundation
import Hummingbird
import Postgres

/// `GET /reauthenticate`: a code by mail that a password change may require (GoTrue's
/// `SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`, here ``AuthConfiguration/securePasswordChange``).
extension AuthAPI {
    /// How old a session may be before a password change needs the mailed code (GoTrue's day).
    static let recentSignInWindow: TimeInterval = 24 * 3600

    /// `GET /reauthenticate`: mails the signed-in user a 6-digit code; `{}`.
    func reauthenticate(_ request: Request) async throws -> Response {
        let (userID, session) = try await signedIn(request)
        try await store.transaction { tx in
            guard let user = try await store.sessionUser(session: session, userID: userID, on: tx) else { throw AuthError.sessionNotFound }
            guard user.email != nil else {
                throw AuthError(.unprocessableContent, "validation_failed", "Reauthentication requires the user to have an email or a phone number")
            }
            try await mailer.send(.reauthentication, to: user, redirectTo: configuration.siteURL, now: sessions.now(), on: tx)
        }
        return JSONReply.text("{}")
    }

    /// Refuses a password change that needs the mailed code and lacks a valid one (which it spends).
    func checkReauthentication(nonce: String?, user: AuthUser, session: UUID, now: Date, on tx: PostgresConnection) async throws {
        guard configuration.securePasswordChange else { return }
        if let started = try await store.sessionStart(session, on: tx), now.timeIntervalSince(started) < AuthAPI.recentSignInWindow {
            return
        }
        guard let nonce, !nonce.isEmpty else {
            throw AuthError(.badRequest, "reauthentication_needed", "Password update requires reauthentication")
        }
        guard let email = user.email,
            let match = try await store.consumeToken(
                hash: OneTimeToken.storedHash(ofLinkToken: oneTimeKeys.linkToken(email: email, code: nonce)), kinds: [.reauthentication],
                on: tx),
            now.timeIntervalSince(match.createdAt) <= configuration.otpExpiry
        else { throw AuthError(.forbidden, "reauthentication_not_valid", "Requires reauthentication") }
    }
}

extension AuthStore {
    /// When `session` started.
    func sessionStart(_ session: UUID, on tx: PostgresConnection) async throws -> Date? {
        try await tx.query("SELECT created_at FROM auth.sessions WHERE id = \(session)").first?.decode(Date.self, at: 0)
    }
}
