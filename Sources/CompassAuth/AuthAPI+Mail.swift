import CompassDomain
import CompassHTTP
import Foundation
import Hummingbird

/// The endpoints that mail a link and code: `/recover`, `/otp`, `/resend`.
///
/// Each answers `{}` whether or not the address has an account (as GoTrue), so they do not
/// tell who signed up; a mail goes out only to an existing account (or a new one from `/otp`).
extension AuthAPI {
    struct MailRequestBody: AuthRequestBody, PKCERequestBody {
        var email: String?
        var phone: String?
        var type: String?
        var create_user: Bool?
        var data: JSONValue?
        var code_challenge: String?
        var code_challenge_method: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["email": email.map(JSONValue.string), "phone": phone.map(JSONValue.string), "type": type.map(JSONValue.string),
             "data": data, "code_challenge": code_challenge.map(JSONValue.string),
             "code_challenge_method": code_challenge_method.map(JSONValue.string)]
        }
    }

    /// `POST /recover` `{email}`: a password-recovery mail; then `/verify type=recovery` and `PUT /user`.
    func recover(_ request: Request) async throws -> Response {
        let body = try await decodeBody(request, as: MailRequestBody.self)
        guard let raw = body.email, !raw.isEmpty else { throw AuthError.validation("Password recovery requires an email") }
        let email = try AuthAPI.email(raw)
        let target = redirects.target(request.formQueryValue("redirect_to"))
        let challenge = try body.challenge()
        try await store.transaction { tx in
            guard let user = try await store.user(email: email, on: tx) else { return }
            do {
                try await mailer.send(.recovery, to: user, redirectTo: target, challenge: challenge, now: sessions.now(), on: tx)
            } catch let error as AuthError where error.code == AuthError.userNotFound.code {
                // Deleted while this request ran: answered as for any address without an account.
            }
        }
        return JSONReply.text("{}")
    }

    /// `POST /otp` `{email, create_user, data}`: a magic link and code to an account, or a
    /// confirmation mail to a new or unconfirmed one.
    func otp(_ request: Request) async throws -> Response {
        let body = try await decodeBody(request, as: MailRequestBody.self)
        // GoTrue's order: both given, then which one (neither is its own refusal).
        let (givesEmail, givesPhone) = (!(body.email ?? "").isEmpty, !(body.phone ?? "").isEmpty)
        if givesEmail, givesPhone { throw AuthError.validation("Only an email address or phone number should be provided") }
        if givesPhone { throw AuthError.phoneDisabled }
        guard givesEmail else { throw AuthError.validation("One of email or phone must be set") }
        let email = try AuthAPI.email(body.email)
        let metadata = body.data ?? .object([:])
        guard case .object = metadata else { throw AuthError.validation("user metadata must be an object") }
        let target = redirects.target(request.formQueryValue("redirect_to"))
        let challenge = try body.challenge()
        let autoconfirm = configuration.autoconfirm
        try await store.transaction { tx in
            var user = try await store.user(email: email, on: tx)
            if user == nil {
                guard body.create_user ?? true else { throw AuthError.otpSignupsDisabled }
                user = try await store.insertUser(email: email, password: nil, userMetadata: metadata, confirmed: autoconfirm, on: tx)
            }
            guard let user else { throw AuthError.internalError }
            let template: MailTemplate = user.emailConfirmedAt == nil ? .confirmation : .magicLink
            try await mailer.send(template, to: user, redirectTo: target, challenge: challenge, now: sessions.now(), on: tx)
        }
        return JSONReply.text("{}")
    }

    /// `POST /resend` `{type: signup, email}`: the confirmation mail again, for an unconfirmed account.
    ///
    /// `email_change`, `sms` and `phone_change` have nothing pending here (no email change in
    /// progress, no phone accounts), which GoTrue also answers with `{}`.
    func resend(_ request: Request) async throws -> Response {
        let body = try await decodeBody(request, as: MailRequestBody.self)
        let type = body.type ?? ""
        guard ["signup", "email_change", "sms", "phone_change"].contains(type) else {
            throw AuthError.validation("Missing one of these types: signup, email_change, sms, phone_change")
        }
        let byEmail = type == "signup" || type == "email_change"
        if byEmail, body.email?.isEmpty ?? true { throw AuthError.validation("Type provided requires an email address") }
        if !byEmail, body.phone?.isEmpty ?? true { throw AuthError.validation("Type provided requires a phone number") }
        guard type == "signup" else { return JSONReply.text("{}") }
        let email = try AuthAPI.email(body.email)
        let target = redirects.target(request.formQueryValue("redirect_to"))
        let challenge = try body.challenge()
        try await store.transaction { tx in
            guard let user = try await store.user(email: email, on: tx), user.emailConfirmedAt == nil else { return }
            try await mailer.send(.confirmation, to: user, redirectTo: target, challenge: challenge, now: sessions.now(), on: tx)
        }
        return JSONReply.text("{}")
    }
}

extension AuthError {
    static let otpSignupsDisabled = AuthError(.unprocessableContent, "otp_disabled", "Signups not allowed for otp")
}
