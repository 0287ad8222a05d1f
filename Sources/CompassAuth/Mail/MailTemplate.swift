import Foundation

/// The mails auth sends, one template each, filled with the site URL, the link, the code and
/// the address.
///
/// Subjects follow GoTrue's defaults; the bodies are plain HTML that works in any client. Every
/// value is HTML-escaped, the link included.
enum MailTemplate: String, Sendable, CaseIterable {
    /// Sign-up confirmation (`/signup`, `/resend type=signup`, `/otp` for a new address).
    case confirmation
    /// Password recovery (`/recover`).
    case recovery
    /// A sign-in link and code for an existing account (`/otp`).
    case magicLink = "magiclink"
    /// An invitation (`/invite`).
    case invite
    /// A new address to confirm (`PUT /user {email}`), mailed to it and to the current one.
    case emailChange = "email_change"
    /// A code to confirm a sensitive change (`/reauthenticate`).
    case reauthentication

    /// The `/verify` `type` its link carries.
    var verificationType: String {
        switch self {
        case .confirmation: "signup"
        case .recovery: "recovery"
        case .magicLink: "magiclink"
        case .invite: "invite"
        case .emailChange: "email_change"
        case .reauthentication: "reauthentication"
        }
    }

    /// What a session from its link signs in by (the `amr` method; a PKCE flow's method).
    var authenticationMethod: String {
        switch self {
        case .confirmation: "email/signup"
        case .recovery: "recovery"
        case .magicLink: "magiclink"
        case .invite: "invite"
        case .emailChange: "email_change"
        case .reauthentication: "reauthentication"
        }
    }

    /// The token type it issues (an email change: the new address's; the current one gets its own).
    var tokenKind: OneTimeToken.Kind {
        switch self {
        case .confirmation, .invite: .confirmation
        case .recovery, .magicLink: .recovery
        case .emailChange: .emailChangeNew
        case .reauthentication: .reauthentication
        }
    }

    var subject: String {
        switch self {
        case .confirmation: "Confirm Your Signup"
        case .recovery: "Reset Your Password"
        case .magicLink: "Your Magic Link"
        case .invite: "You have been invited"
        case .emailChange: "Confirm Email Change"
        case .reauthentication: "Confirm reauthentication"
        }
    }

    /// Its name in settings (`COMPASS_AUTH_MAILER_SUBJECTS_MAGIC_LINK`), GoTrue's.
    var settingName: String {
        switch self {
        case .confirmation: "CONFIRMATION"
        case .recovery: "RECOVERY"
        case .magicLink: "MAGIC_LINK"
        case .invite: "INVITE"
        case .emailChange: "EMAIL_CHANGE"
        case .reauthentication: "REAUTHENTICATION"
        }
    }

    /// The mail, from the operator's subject and body when configured, else the built-in ones.
    func message(to email: String, values: MailCustomization.Values, customization: MailCustomization) -> MailMessage {
        var message = message(to: email, link: values.confirmationURL, code: values.token, siteURL: values.siteURL)
        if let subject = customization.subjects[rawValue] { message.subject = subject }
        if let body = customization.bodies[rawValue] { message.html = MailCustomization.fill(body, with: values) }
        return message
    }

    /// The built-in mail for `email` with `link` and `code`.
    func message(to email: String, link: String, code: String, siteURL: String) -> MailMessage {
        let (heading, action, button) =
            switch self {
            case .confirmation: ("Confirm your signup", "confirm your address", "Confirm my address")
            case .recovery: ("Reset your password", "choose a new password", "Reset my password")
            case .magicLink: ("Your sign-in link", "sign in", "Sign in")
            case .invite: ("You have been invited", "accept the invitation and create your account", "Accept the invitation")
            case .emailChange: ("Confirm the change of your email address", "confirm this change of address", "Confirm the change")
            case .reauthentication: ("Confirm it is you", "", "")
            }
        // A reauthentication code is typed into the app; it has no link to follow.
        let linkLine = self == .reauthentication ? "" : """
            <p>Follow this link to \(Self.escaped(action)) at \(Self.escaped(siteURL)):</p>
            <p><a href="\(Self.escaped(link))">\(Self.escaped(button))</a></p>

            """
        let html = """
            <h2>\(Self.escaped(heading))</h2>
            \(linkLine)<p>Or enter this code: <strong>\(Self.escaped(code))</strong></p>
            <p>If you did not ask for this mail (sent to \(Self.escaped(email))), you can ignore it.</p>
            """
        return MailMessage(to: email, subject: subject, html: html)
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
