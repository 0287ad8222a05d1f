import Foundation
import Logging
import Postgres

/// Issues a one-time token and mails it: the one path every auth mail takes.
///
/// ```swift
/// try await mailer.send(.recovery, to: user, redirectTo: policy.target(requested), now: now, on: tx)
/// ```
/// Runs inside the caller's transaction, so a mail the SMTP server refused leaves no token
/// behind (and the reply is GoTrue's 500). Two limits hold first: one mail of a kind per user
/// per ``AuthConfiguration/mailMinimumInterval`` and ``AuthConfiguration/mailsPerHour`` in all
/// (429 `over_email_send_rate_limit`). Without an SMTP server the token is stored and nothing
/// is sent, as GoTrue does; neither the code nor the link is ever logged.
struct AuthMailer: Sendable {
    let configuration: AuthConfiguration
    let store: AuthStore
    let keys: OneTimeTokenKey
    let logger: Logger

    /// Marks a link token whose flow is PKCE (as GoTrue marks it).
    static let pkcePrefix = "pkce_"

    /// `/auth/v1` as mailed links reach it.
    var verifyURL: String { (configuration.externalURL ?? "http://localhost:4000") + "/auth/v1/verify" }

    /// Mails `template` to `user`'s address (or `address`, for an email change) with a fresh token
    /// of the template's kind (or `kind`). With a PKCE `challenge` the flow is recorded and the
    /// link marked (`pkce_`), so opening it yields a code, not a session.
    func send(
        _ template: MailTemplate, to user: AuthUser, address: String? = nil, kind: OneTimeToken.Kind? = nil, redirectTo: String,
        challenge: PKCEChallenge? = nil, now: Date, on tx: PostgresConnection
    ) async throws {
        guard let email = address ?? user.email, let userID = UUID(uuidString: user.id) else { throw AuthError.internalError }
        let kind = kind ?? template.tokenKind
        if let last = try await store.tokenIssuedAt(userID: userID, kind: kind, on: tx) {
            let wait = configuration.mailMinimumInterval - now.timeIntervalSince(last)
            if wait > 0 { throw AuthError.mailTooSoon(seconds: Int(wait.rounded(.up))) }
        }
        let counts = try await store.countSignInAttempt(keys: ["mail:sent"], now: now, window: 3600)
        guard counts["mail:sent", default: .max] <= configuration.mailsPerHour else { throw AuthError.mailRateLimited }
        let (token, link) = try await issue(
            template, to: userID, address: email, kind: kind, redirectTo: redirectTo, challenge: challenge, now: now, on: tx)
        guard let smtp = configuration.smtp else {
            logger.warning("auth mail not sent: no SMTP server is configured", metadata: ["mail.kind": "\(template.rawValue)"])
            return
        }
        do {
            try await SMTPClient(configuration: smtp).send(
                template.message(
                    to: email,
                    values: MailCustomization.Values(
                        confirmationURL: link, token: token.code, tokenHash: token.linkToken, siteURL: configuration.siteURL,
                        email: email, redirectTo: redirectTo),
                    customization: configuration.mailCustomization))
        } catch {
            logger.error("auth mail failed", metadata: ["mail.kind": "\(template.rawValue)", "error": "\(error)"])
            throw AuthError.mailFailed(template)
        }
    }

    /// Stores a fresh token of `kind` for `address` (and the PKCE flow of `challenge`) and returns
    /// it with its link; sends nothing (`send`, and `/admin/generate_link`, which returns the link).
    func issue(
        _ template: MailTemplate, to userID: UUID, address: String, kind: OneTimeToken.Kind, redirectTo: String,
        challenge: PKCEChallenge? = nil, now: Date, on tx: PostgresConnection
    ) async throws -> (token: OneTimeToken, link: String) {
        // The account first (then its tokens), the order a soft delete takes them in; an account
        // deleted meanwhile gets no token that would keep its address.
        guard try await store.accountState(userID: userID, forWriting: true, on: tx) != .gone else { throw AuthError.userNotFound }
        let token = keys.issue(for: address)
        try await store.saveToken(userID: userID, kind: kind, hash: token.storedHash, sentTo: address, now: now, on: tx)
        if let challenge {
            try await store.createFlowState(userID: userID, challenge: challenge, method: template.authenticationMethod, now: now, on: tx)
        }
        let linkToken = (challenge == nil ? "" : AuthMailer.pkcePrefix) + token.linkToken
        return (token, link(token: linkToken, type: template.verificationType, redirectTo: redirectTo))
    }

    /// The `/verify` link for `token`.
    func link(token: String, type: String, redirectTo: String) -> String {
        var components = URLComponents(string: verifyURL) ?? URLComponents()
        components.queryItems = [
            URLQueryItem(name: "token", value: token), URLQueryItem(name: "type", value: type),
            URLQueryItem(name: "redirect_to", value: redirectTo),
        ]
        // `+` would read as a space in a query; encode it as the URL's own.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.string ?? verifyURL
    }
}
