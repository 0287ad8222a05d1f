import CompassHTTP
import Foundation

/// An operator's own subjects and bodies for auth's mails, named as GoTrue names them.
///
/// `COMPASS_AUTH_MAILER_SUBJECTS_<KIND>` sets a subject; `COMPASS_AUTH_MAILER_TEMPLATES_<KIND>` names
/// an HTML file read at start, whose `{{ .ConfirmationURL }}`, `{{ .Token }}`, `{{ .TokenHash }}`,
/// `{{ .SiteURL }}`, `{{ .Email }}` and `{{ .RedirectTo }}` are filled in (HTML-escaped) for each
/// mail. Kinds: `CONFIRMATION`, `RECOVERY`, `MAGIC_LINK`, `INVITE`, `EMAIL_CHANGE`, `REAUTHENTICATION`.
public struct MailCustomization: Sendable, Hashable {
    /// Subjects by template.
    public var subjects: [String: String] = [:]
    /// Bodies (HTML with placeholders) by template.
    public var bodies: [String: String] = [:]

    /// None: the built-in templates.
    public init() {}

    /// Reads the environment; an unreadable template file throws naming its variable.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        for template in MailTemplate.allCases {
            let name = template.settingName
            if let subject = environment.string("COMPASS_AUTH_MAILER_SUBJECTS_" + name) {
                // A header value: one line.
                subjects[template.rawValue] = subject.filter { $0 != "\r" && $0 != "\n" }
            }
            let variable = "COMPASS_AUTH_MAILER_TEMPLATES_" + name
            if let path = environment.string(variable) {
                guard let body = try? String(contentsOfFile: path, encoding: .utf8) else {
                    throw ConfigurationError(variable, value: path, problem: "is not a readable UTF-8 file")
                }
                bodies[template.rawValue] = body
            }
        }
    }

    /// The values a custom body may use.
    struct Values {
        var confirmationURL: String
        var token: String
        var tokenHash: String
        var siteURL: String
        var email: String
        var redirectTo: String
    }

    /// `body` with each placeholder replaced by its escaped value (spaces inside the braces optional).
    static func fill(_ body: String, with values: Values) -> String {
        let replacements = [
            ("ConfirmationURL", values.confirmationURL), ("TokenHash", values.tokenHash), ("Token", values.token),
            ("SiteURL", values.siteURL), ("Email", values.email), ("RedirectTo", values.redirectTo),
        ]
        var text = body
        for (name, value) in replacements {
            let pattern = #"\{\{\s*\.\#(name)\s*\}\}"#
            text = text.replacingOccurrences(
                of: pattern, with: NSRegularExpression.escapedTemplate(for: MailTemplate.escaped(value)), options: .regularExpression)
        }
        return text
    }
}
