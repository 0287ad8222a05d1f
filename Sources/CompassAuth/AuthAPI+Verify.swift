import CompassDomain
import CompassHTTP
import Foundation
import HTTPTypes
import Hummingbird
import Postgres

/// `/verify`: redeeming a mailed link (GET, from a browser) or code (POST, from an app).
extension AuthAPI {
    /// The `type` of a verification, and which stored tokens it may redeem.
    enum VerificationType: String, Sendable {
        case signup, invite, recovery, magiclink, email
        case emailChange = "email_change"
        /// Phone codes: GoTrue's types, which no code redeems here (no text message is ever sent).
        case sms
        case phoneChange = "phone_change"

        var tokenKinds: [OneTimeToken.Kind] {
            switch self {
            case .signup, .invite: [.confirmation]
            case .recovery, .magiclink: [.recovery]
            case .email: [.confirmation, .recovery]
            case .emailChange: [.emailChangeNew, .emailChangeCurrent]
            case .sms, .phoneChange: []
            }
        }

        init(_ text: String?) throws(AuthError) {
            guard let text, let type = VerificationType(rawValue: text) else {
                throw AuthError.validation("Unsupported verification type")
            }
            self = type
        }
    }

    struct VerifyBody: AuthRequestBody {
        var type: String?
        var email: String?
        var phone: String?
        var token: String?
        var token_hash: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["type": type.map(JSONValue.string), "email": email.map(JSONValue.string), "phone": phone.map(JSONValue.string),
             "token": token.map(JSONValue.string), "token_hash": token_hash.map(JSONValue.string)]
        }
    }

    /// `POST /verify` `{type, email, token}` or `{type, token_hash}`: the session, as JSON (a
    /// PKCE-marked token too: the code was typed into the app that asked).
    ///
    /// `{type, phone, token}` is checked as GoTrue checks it (an E.164 number), then refused as a
    /// code that has expired or is invalid: this server sends no text messages, so no phone
    /// code can be pending.
    func verifyCode(_ request: Request, address: String) async throws -> Response {
        let body = try await decodeBody(request, as: VerifyBody.self)
        let type = try VerificationType(body.type)
        let linkToken: String
        if let hash = body.token_hash, !hash.isEmpty {
            linkToken = hash.hasPrefix(AuthMailer.pkcePrefix) ? String(hash.dropFirst(AuthMailer.pkcePrefix.count)) : hash
        } else if let code = body.token, !code.isEmpty {
            let (address, phone) = (body.email ?? "", body.phone ?? "")
            guard address.isEmpty != phone.isEmpty else {
                throw AuthError.validation("Only an email address or phone number should be provided on verify")
            }
            if !phone.isEmpty {
                _ = try AuthAPI.phone(phone)
                throw AuthError.otpExpired
            }
            let email = try AuthAPI.email(address)
            linkToken = oneTimeKeys.linkToken(email: email, code: code.trimmingCharacters(in: .whitespaces))
        } else {
            throw AuthError.validation("Verify requires either a token or a token hash")
        }
        let session = try await redeem(linkToken, type: type, address: address, refusal: .otpExpired) { user, tx in
            try await finishVerification(of: user, type: type, on: tx)
        }
        guard let session else {
            return JSONReply.object(status: .ok, ["msg": AuthAPI.oneConfirmationAccepted, "code": "200"])
        }
        return try JSONReply.encoded(session)
    }

    /// `GET /verify?token=&type=&redirect_to=`: a redirect (303) to the allowed target with the
    /// session in the fragment (GoTrue's implicit flow), or for a PKCE link with `?code=` to
    /// exchange at `/token?grant_type=pkce`; or with the error.
    func verifyLink(_ request: Request, address: String) async throws -> Response {
        // Read as GoTrue reads it (Go's URL.Query: `+` is a space).
        var target = redirects.target(request.formQueryValue("redirect_to"))
        var token = request.formQueryValue("token") ?? ""
        let pkce = token.hasPrefix(AuthMailer.pkcePrefix)
        if pkce { token.removeFirst(AuthMailer.pkcePrefix.count) }
        var fragment: [(String, String)] = []
        do {
            let type = try VerificationType(request.formQueryValue("type"))
            guard !token.isEmpty else { throw AuthError.linkExpired }
            if pkce {
                let code = try await redeem(token, type: type, address: address, refusal: .linkExpired) { user, tx in
                    try await issueAuthCode(for: user, type: type, on: tx)
                }
                target = AuthAPI.appending(query: [("code", code)], to: target)
            } else if let session = try await redeem(token, type: type, address: address, refusal: .linkExpired, then: { user, tx in
                try await finishVerification(of: user, type: type, on: tx)
            }) {
                fragment = [
                    ("access_token", session.accessToken), ("expires_at", String(session.expiresAt)),
                    ("expires_in", String(session.expiresIn)), ("refresh_token", session.refreshToken),
                    ("token_type", session.tokenType), ("type", type.rawValue),
                ]
            } else {
                fragment = [("message", AuthAPI.oneConfirmationAccepted), ("sb", "")]
            }
        } catch let error as AuthError where error.status.code < 500 {
            let kind = error.status == .tooManyRequests ? "temporarily_unavailable" : "access_denied"
            let details = [("error", kind), ("error_code", error.code), ("error_description", error.message)]
            // A PKCE client reads the query; everyone may read the fragment (GoTrue sends both).
            if pkce { target = AuthAPI.appending(query: details, to: target) }
            fragment = details + [("sb", "")]
        }
        var headers = HTTPFields()
        headers[.location] = fragment.isEmpty ? target : AuthAPI.appending(fragment: fragment, to: target)
        return Response(status: .seeOther, headers: headers)
    }

    /// Redeems `linkToken` for `type` (once), confirms the address, then runs `finish` for the
    /// user in the same transaction (a session, or a PKCE code).
    func redeem<T: Sendable>(
        _ linkToken: String, type: VerificationType, address: String, refusal: AuthError,
        then finish: (AuthUser, PostgresConnection) async throws -> T
    ) async throws -> T {
        let now = sessions.now()
        let attempt = try await limiter.admitVerification(address: address, now: now)
        let outcome: Result<T, AuthError> = try await store.transaction { tx in
            let hash = OneTimeToken.storedHash(ofLinkToken: linkToken)
            guard let match = try await store.consumeToken(hash: hash, kinds: type.tokenKinds, on: tx),
                now.timeIntervalSince(match.createdAt) <= configuration.otpExpiry
            else { return .failure(refusal) }
            // Holding the address proves it: a recovery or magic link confirms it too (as GoTrue).
            // An email change keeps the other address's token until it is confirmed as well.
            let changing = type == .emailChange
            guard let user = try await (changing ? store.user(id: match.userID, on: tx) : store.updateUser(id: match.userID, confirmEmail: true, on: tx))
            else { return .failure(refusal) }
            // A banned account's link is refused before it is used up, as GoTrue refuses it (also
            // a PKCE link, which starts no session here).
            if try await store.accountState(userID: match.userID, on: tx) == .banned { throw AuthError.userBannedAtVerify }
            try await store.deleteTokens(userID: match.userID, keeping: changing ? [.emailChangeNew, .emailChangeCurrent] : [], on: tx)
            return .success(try await finish(user, tx))
        }
        // A redeemed token was no guess.
        if case .success = outcome { try? await limiter.refund(attempt) }
        return try outcome.get()
    }

    /// The message for the first of two email-change confirmations (GoTrue's words).
    static let oneConfirmationAccepted = "Confirmation link accepted. Please proceed to confirm link sent to the other email"

    /// A session for a verified user; for an email change, once both addresses confirmed (nil before).
    func finishVerification(of user: AuthUser, type: VerificationType, on tx: PostgresConnection) async throws -> AuthSession? {
        guard type == .emailChange else { return try await sessions.startSession(for: user, method: "otp", on: tx) }
        guard let userID = UUID(uuidString: user.id) else { throw AuthError.internalError }
        guard let changed = try await store.completeEmailChange(userID: userID, on: tx) else { return nil }
        return try await sessions.startSession(for: changed, method: "email_change", on: tx)
    }

    /// `base#key=value&…`, form-encoded as GoTrue writes the fragment.
    static func appending(fragment: [(String, String)], to base: String) -> String {
        let withoutFragment = base.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? base
        return withoutFragment + "#" + encoded(fragment)
    }

    /// `base` with `items` added to its query (before any fragment).
    static func appending(query items: [(String, String)], to base: String) -> String {
        let parts = base.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let head = String(parts[0])
        let tail = parts.count > 1 ? "#" + parts[1] : ""
        return head + (head.contains("?") ? "&" : "?") + encoded(items) + tail
    }

    private static func encoded(_ items: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return items.map { key, value in key + "=" + (value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "") }
            .joined(separator: "&")
    }
}
