import CompassDomain
import CompassHTTP
import CompassTokens
import Foundation
import Hummingbird

/// Sign-up, sign-in, refresh, the current user and sign-out.
extension AuthAPI {
    struct Credentials: AuthRequestBody, PKCERequestBody {
        var email: String?
        /// Refused: phone accounts are not served (GoTrue with its phone provider off).
        var phone: String?
        var password: String?
        var data: JSONValue?
        var code_challenge: String?
        var code_challenge_method: String?
        /// `PUT /user`: the code from `/reauthenticate`.
        var nonce: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["email": email.map(JSONValue.string), "phone": phone.map(JSONValue.string),
             "password": password.map(JSONValue.string), "data": data,
             "nonce": nonce.map(JSONValue.string),
             "code_challenge": code_challenge.map(JSONValue.string), "code_challenge_method": code_challenge_method.map(JSONValue.string)]
        }
    }

    struct RefreshBody: AuthRequestBody {
        var refresh_token: String?
        var textFields: KeyValuePairs<String, JSONValue?> { ["refresh_token": refresh_token.map(JSONValue.string)] }
    }

    /// `PUT /user`'s fields: the same as sign-up's.
    typealias UserUpdate = Credentials

    /// `POST /signup`: a session when sign-up confirms at once, else the unconfirmed user.
    ///
    /// A taken email gets 422 `user_already_exists` only with autoconfirm on (where a new
    /// account would sign in at once, so GoTrue cannot hide it). With confirmation on it gets
    /// what a new sign-up gets, an unconfirmed user (``AuthStore/obfuscatedUser(email:userMetadata:on:)``),
    /// after the same bcrypt, with no identities (the one sign GoTrue gives apps, documented by
    /// Supabase), and an account still unconfirmed gets its confirmation mail again. A new
    /// account with confirmation on gets a confirmation mail (``AuthMailer``).
    func signUp(_ request: Request, address: String) async throws -> Response {
        let body = try await decodeBody(request, as: Credentials.self)
        if let phone = body.phone, !phone.isEmpty {
            guard (body.email ?? "").isEmpty else {
                throw AuthError.validation("Only an email address or phone number should be provided on signup.")
            }
            throw AuthError(.badRequest, "phone_provider_disabled", "Phone signups are disabled")
        }
        if body.email == nil, body.password == nil { return try await signUpAnonymously(body, address: address) }
        let email = try AuthAPI.email(body.email)
        guard let password = body.password, !password.isEmpty else { throw AuthError.validation("Signup requires a valid password") }
        try checkStrength(password)
        let metadata = body.data ?? .object([:])
        guard case .object = metadata else { throw AuthError.validation("user metadata must be an object") }
        let autoconfirm = configuration.autoconfirm
        let target = redirects.target(request.formQueryValue("redirect_to"))
        let challenge = try body.challenge()
        let reply: Result<Response, AuthError> = try await store.transaction { tx in
            guard
                let user = try await store.insertUser(
                    email: email, password: password, userMetadata: metadata, confirmed: autoconfirm, on: tx)
            else {
                guard !autoconfirm, let decoy = try await store.obfuscatedUser(email: email, userMetadata: metadata, on: tx)
                else { return .failure(.userAlreadyExists) }
                // An account still unconfirmed gets its confirmation mail again (GoTrue does), unless
                // one went out too recently: then nothing is sent, but the reply stays the decoy
                // (GoTrue's 429 here would tell the address has an account).
                if let existing = try await store.user(email: email, on: tx), existing.emailConfirmedAt == nil {
                    do {
                        try await mailer.send(
                            .confirmation, to: existing, redirectTo: target, challenge: challenge, now: sessions.now(), on: tx)
                    } catch let error as AuthError where error.status == .tooManyRequests {}
                }
                return .success(try JSONReply.encoded(decoy))
            }
            guard autoconfirm else {
                try await mailer.send(.confirmation, to: user, redirectTo: target, challenge: challenge, now: sessions.now(), on: tx)
                let mailed = try await store.user(email: email, on: tx) ?? user
                return .success(try JSONReply.encoded(mailed))
            }
            return .success(try JSONReply.encoded(try await sessions.startSession(for: user, on: tx)))
        }
        return try reply.get()
    }

    /// `POST /signup` with neither email nor password: an anonymous account and its session
    /// (`is_anonymous` in the user and the token, `amr` method `anonymous`), when
    /// ``AuthConfiguration/anonymousUsers`` allows them; a budget per client address per hour.
    func signUpAnonymously(_ body: Credentials, address: String) async throws -> Response {
        guard configuration.anonymousUsers else {
            throw AuthError(.unprocessableContent, "anonymous_provider_disabled", "Anonymous sign-ins are disabled")
        }
        let metadata = body.data ?? .object([:])
        guard case .object = metadata else { throw AuthError.validation("user metadata must be an object") }
        _ = try await limiter.admitAnonymousSignUp(address: address, now: sessions.now())
        let session = try await store.transaction { tx in
            guard let user = try await store.insertAnonymousUser(userMetadata: metadata, on: tx) else { throw AuthError.internalError }
            return try await sessions.startSession(for: user, method: "anonymous", on: tx)
        }
        return try JSONReply.encoded(session)
    }

    /// `POST /token?grant_type=password|refresh_token`.
    func token(_ request: Request, address: String) async throws -> Response {
        switch request.formQueryValue("grant_type") {
        case "password":
            let body = try await decodeBody(request, as: Credentials.self)
            // GoTrue's order: both given, then which one; the address as sent (only its case is ignored).
            let (email, phone) = ((body.email ?? "").lowercased(), body.phone ?? "")
            if !email.isEmpty, !phone.isEmpty {
                throw AuthError.validation("Only an email address or phone number should be provided on login.")
            }
            if !phone.isEmpty { throw AuthError(.unprocessableContent, "phone_provider_disabled", "Phone logins are disabled") }
            guard !email.isEmpty else { throw AuthError.validation("missing email or phone") }
            let password = body.password ?? ""
            guard !password.isEmpty else { throw AuthError.invalidCredentials }
            // Counted (and committed) before bcrypt runs, so concurrent guesses cannot overrun the budget.
            let attempt = try await limiter.admit(email: email, address: address, now: sessions.now())
            let outcome: Result<AuthSession, AuthError> = try await store.transaction { tx in
                switch try await store.authenticate(email: email, password: password, on: tx) {
                case .valid(let user): return .success(try await sessions.startSession(for: user, on: tx))
                case .unconfirmed: return .failure(AuthError(.badRequest, "email_not_confirmed", "Email not confirmed"))
                case .invalid: return .failure(.invalidCredentials)
                }
            }
            // The password matched: no failure. A refund that fails leaves the count (the safe side)
            // and must not turn a session already started into an error reply.
            if case .failure(.invalidCredentials) = outcome {} else { try? await limiter.refund(attempt) }
            return try JSONReply.encoded(try outcome.get())
        case "refresh_token":
            let body = try await decodeBody(request, as: RefreshBody.self)
            guard let token = body.refresh_token, !token.isEmpty else { throw AuthError.refreshTokenNotFound }
            return try JSONReply.encoded(try await sessions.refresh(token))
        case "pkce":
            return try JSONReply.encoded(try await exchangeCode(request))
        default:
            throw AuthError(.badRequest, "unsupported_grant_type", "unsupported_grant_type")
        }
    }

    /// The user and session of the request's access token.
    func signedIn(_ request: Request) async throws(AuthError) -> (user: UUID, session: UUID) {
        guard let token = request.bearerToken else { throw .noAuthorization }
        let claims: AccessClaims
        do {
            claims = try await verifier.verify(token)
        } catch {
            throw AuthError.badJWT(error)
        }
        guard let user = claims.subject.flatMap(UUID.init(uuidString:)) else {
            throw AuthError(.forbidden, "bad_jwt", "invalid claim: missing sub claim")
        }
        guard let session = claims.sessionID else { throw .sessionNotFound }
        return (user, session)
    }

    /// `GET /user`.
    func currentUser(_ request: Request) async throws -> Response {
        let (userID, session) = try await signedIn(request)
        guard let user = try await store.transaction({ tx in try await store.sessionUser(session: session, userID: userID, on: tx) })
        else { throw AuthError.sessionNotFound }
        return try JSONReply.encoded(user)
    }

    /// `PUT /user`: a new password, metadata merged into `user_metadata`, and/or a new email.
    ///
    /// A new email is mailed for confirmation to it and to the current address (both must be
    /// confirmed at `/verify type=email_change`), as GoTrue's secure email change; an anonymous
    /// account with autoconfirm on takes it at once. With ``AuthConfiguration/securePasswordChange``
    /// a new password needs the `nonce` from `/reauthenticate` unless the session is under a day old.
    func updateCurrentUser(_ request: Request) async throws -> Response {
        let (userID, session) = try await signedIn(request)
        let body = try await decodeBody(request, as: UserUpdate.self)
        if let password = body.password { try checkStrength(password) }
        if let data = body.data, case .object = data {} else if body.data != nil {
            throw AuthError.validation("user metadata must be an object")
        }
        let newEmail = try body.email.flatMap { text throws(AuthError) in text.isEmpty ? nil : try AuthAPI.email(text) }
        let target = redirects.target(request.formQueryValue("redirect_to"))
        let challenge = try body.challenge()
        let now = sessions.now()
        let user = try await store.transaction { tx -> AuthUser? in
            guard let current = try await store.sessionUser(session: session, userID: userID, locking: true, on: tx) else { return nil }
            let changingEmail = newEmail != nil && newEmail != current.email
            if current.isAnonymous, body.password?.isEmpty == false, !changingEmail {
                throw AuthError(
                    .unprocessableContent, "validation_failed",
                    "Updating password of an anonymous user without an email or phone is not allowed")
            }
            if let password = body.password, !password.isEmpty {
                try await checkReauthentication(nonce: body.nonce, user: current, session: session, now: now, on: tx)
            }
            // A new password signs out every other session; this one stays (GoTrue's UpdatePassword).
            var updated = try await store.updateUser(
                id: userID, password: body.password, keepingSession: session, userMetadata: body.data, on: tx)
            if let newEmail, changingEmail, let user = updated {
                if try await store.user(email: newEmail, on: tx) != nil { throw AuthError.emailExists }
                if current.isAnonymous, configuration.autoconfirm {
                    updated = try await store.completeEmailChange(userID: userID, to: newEmail, on: tx)
                } else {
                    try await store.beginEmailChange(userID: userID, to: newEmail, on: tx)
                    if let address = current.email {
                        try await mailer.send(
                            .emailChange, to: user, address: address, kind: .emailChangeCurrent, redirectTo: target, now: now, on: tx)
                    }
                    try await mailer.send(
                        .emailChange, to: user, address: newEmail, kind: .emailChangeNew, redirectTo: target, challenge: challenge,
                        now: now, on: tx)
                    updated = try await store.user(id: userID, on: tx)
                }
            }
            return updated
        }
        guard let user else { throw AuthError.sessionNotFound }
        return try JSONReply.encoded(user)
    }

    /// `POST /logout?scope=global|local|others`.
    func logout(_ request: Request) async throws -> Response {
        let (userID, session) = try await signedIn(request)
        let scope = try LogoutScope(parameter: request.formQueryValue("scope"))
        try await store.transaction { tx in
            switch scope {
            case .local: try await store.deleteSession(session, on: tx)
            case .others: try await store.deleteSessions(userID: userID, keeping: session, on: tx)
            case .global: try await store.deleteSessions(userID: userID, on: tx)
            }
        }
        return Response(status: .noContent)
    }
}
