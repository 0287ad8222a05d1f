import CompassDomain
import CompassHTTP
import Foundation
import Hummingbird
import Postgres

/// The admin side of mailed links: `POST /invite` mails an invitation; `POST /admin/generate_link`
/// returns a link and code without mailing them (for an app that sends its own mail).
extension AuthAPI {
    struct InviteBody: AuthRequestBody {
        var email: String?
        var data: JSONValue?
        var textFields: KeyValuePairs<String, JSONValue?> { ["email": email.map(JSONValue.string), "data": data] }
    }

    struct GenerateLinkBody: AuthRequestBody {
        var type: String?
        var email: String?
        var password: String?
        var new_email: String?
        var data: JSONValue?
        var redirect_to: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["type": type.map(JSONValue.string), "email": email.map(JSONValue.string), "password": password.map(JSONValue.string),
             "new_email": new_email.map(JSONValue.string), "data": data, "redirect_to": redirect_to.map(JSONValue.string)]
        }
    }

    /// `POST /invite` `{email, data}` (admin): an unconfirmed account marked `invited_at`, and the mail.
    func invite(_ request: Request) async throws -> Response {
        try await requireAdmin(request)
        let body = try await decodeBody(request, as: InviteBody.self)
        let email = try AuthAPI.email(body.email)
        let metadata = try AuthAPI.metadataObject(body.data)
        let target = redirects.target(request.formQueryValue("redirect_to"))
        let now = sessions.now()
        let user = try await store.transaction { tx in
            let invited = try await invitee(email: email, metadata: metadata, on: tx)
            try await mailer.send(.invite, to: invited, redirectTo: target, now: now, on: tx)
            return try await store.user(email: email, on: tx) ?? invited
        }
        return try JSONReply.encoded(user)
    }

    /// `POST /admin/generate_link` `{type, email, password?, new_email?, data?}` (admin): the user
    /// with `action_link`, `email_otp`, `hashed_token`, `redirect_to` and `verification_type`.
    func generateLink(_ request: Request) async throws -> Response {
        try await requireAdmin(request)
        let body = try await decodeBody(request, as: GenerateLinkBody.self)
        let email = try AuthAPI.email(body.email)
        let metadata = try AuthAPI.metadataObject(body.data)
        let target = redirects.target(body.redirect_to ?? request.formQueryValue("redirect_to"))
        let now = sessions.now()
        let type = body.type ?? ""
        let (user, token, link) = try await store.transaction { tx in
            let existing = try await store.user(email: email, on: tx)
            var template = MailTemplate.magicLink
            var address = email
            var kind: OneTimeToken.Kind?
            var user: AuthUser
            switch type {
            case "signup":
                guard let password = body.password, !password.isEmpty else { throw AuthError.validation("Signup requires a valid password") }
                try checkStrength(password)
                if let existing {
                    guard existing.emailConfirmedAt == nil else { throw AuthError.emailExists }
                    user = existing
                } else {
                    guard let created = try await store.insertUser(email: email, password: password, userMetadata: metadata, confirmed: false, on: tx)
                    else { throw AuthError.emailExists }
                    user = created
                }
                template = .confirmation
            case "invite":
                user = try await invitee(email: email, metadata: metadata, on: tx)
                template = .invite
            case "magiclink", "recovery":
                guard let existing else { throw AuthError.userNotFound }
                user = existing
                template = type == "recovery" ? .recovery : .magicLink
            case "email_change_current", "email_change_new":
                guard let existing, let userID = UUID(uuidString: existing.id) else { throw AuthError.userNotFound }
                let newEmail = try AuthAPI.email(body.new_email)
                if try await store.user(email: newEmail, on: tx) != nil { throw AuthError.emailExists }
                try await store.beginEmailChange(userID: userID, to: newEmail, on: tx)
                user = existing
                template = .emailChange
                kind = type == "email_change_new" ? .emailChangeNew : .emailChangeCurrent
                if type == "email_change_new" { address = newEmail }
            default:
                throw AuthError.validation("Invalid link type: one of signup, invite, magiclink, recovery, email_change_current, email_change_new")
            }
            guard let userID = UUID(uuidString: user.id) else { throw AuthError.internalError }
            let (token, link) = try await mailer.issue(
                template, to: userID, address: address, kind: kind ?? template.tokenKind, redirectTo: target, now: now, on: tx)
            return (try await store.user(id: userID, on: tx) ?? user, token, link)
        }
        var fields = try JSONSerialization.jsonObject(with: JSONEncoder().encode(user)) as? [String: Any] ?? [:]
        fields["action_link"] = link
        fields["email_otp"] = token.code
        fields["hashed_token"] = token.linkToken
        fields["redirect_to"] = target
        // The requested type (`email_change_current`), which clients check; the link says `email_change`.
        fields["verification_type"] = type
        return JSONReply.text(String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self))
    }

    /// The invited account: a new unconfirmed one, or the unconfirmed one already there; marked invited.
    func invitee(email: String, metadata: JSONValue, on tx: PostgresConnection) async throws -> AuthUser {
        var user = try await store.user(email: email, on: tx)
        if let user, user.emailConfirmedAt != nil { throw AuthError.emailExists }
        if user == nil { user = try await store.insertUser(email: email, password: nil, userMetadata: metadata, confirmed: false, on: tx) }
        guard let user, let id = UUID(uuidString: user.id) else { throw AuthError.emailExists }
        try await tx.query("UPDATE auth.users SET invited_at = now() WHERE id = \(id)")
        return user
    }

    /// `data` as user metadata: absent is `{}`, anything but an object is refused.
    static func metadataObject(_ data: JSONValue?) throws(AuthError) -> JSONValue {
        let metadata = data ?? .object([:])
        guard case .object = metadata else { throw AuthError.validation("user metadata must be an object") }
        return metadata
    }
}
