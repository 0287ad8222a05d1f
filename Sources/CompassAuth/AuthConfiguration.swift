import CompassHTTP
import Foundation

/// `/auth/v1`'s settings, from the environment.
///
/// ```swift
/// let configuration = try AuthConfiguration(environment: ProcessInfo.processInfo.environment)
/// ```
/// | variable | default | meaning |
/// |---|---|---|
/// | `COMPASS_AUTH_JWT_EXPIRY` | 3600 | access-token lifetime, seconds |
/// | `COMPASS_AUTH_AUTOCONFIRM` | true | sign-up confirms the email and signs in at once |
/// | `COMPASS_AUTH_MIN_PASSWORD_LENGTH` | 6 | shorter passwords get 422 weak_password |
/// | `COMPASS_AUTH_REFRESH_REUSE_INTERVAL` | 10 | seconds a rotated refresh token may still be replayed |
/// | `COMPASS_AUTH_RATE_LIMIT_EMAIL` | 10 | failed sign-ins per email per window before 429 (see ``SignInRateLimiter``) |
/// | `COMPASS_AUTH_RATE_LIMIT_ADDRESS` | 30 | failed sign-ins per client address per window before 429 |
/// | `COMPASS_AUTH_RATE_LIMIT_WINDOW` | 300 | the rate-limit window, seconds |
/// | `COMPASS_AUTH_MAX_BODY_BYTES` | 16384 | larger request bodies get 413 |
/// | `COMPASS_AUTH_DB_POOL_SIZE` | 4 | auth's own database connections |
/// | `COMPASS_AUTH_SITE_URL` | http://localhost:3000 | the app: where mailed links land by default |
/// | `COMPASS_AUTH_URI_ALLOW_LIST` | (none) | other `redirect_to` targets, comma-separated, `*`/`**` globs |
/// | `COMPASS_AUTH_EXTERNAL_URL` | the worker's own address | the public base of `/auth/v1`, for links in mails |
/// | `COMPASS_AUTH_MAILER_OTP_EXPIRY` | 3600 | seconds a mailed code or link stays valid |
/// | `COMPASS_AUTH_MAILER_MIN_INTERVAL` | 60 | seconds before another mail of a kind to one user |
/// | `COMPASS_AUTH_RATE_LIMIT_EMAIL_SENT` | 30 | mails sent per hour, all users together |
/// | `COMPASS_AUTH_RATE_LIMIT_VERIFY` | 30 | `/verify` attempts per client address per window |
/// | `COMPASS_AUTH_SECURE_PASSWORD_CHANGE` | false | `PUT /user {password}` needs the `/reauthenticate` code unless the session is under a day old |
/// | `COMPASS_AUTH_ANONYMOUS_USERS` | false | `/signup` with no email and password makes an anonymous account |
/// | `COMPASS_AUTH_RATE_LIMIT_ANONYMOUS_USERS` | 30 | anonymous sign-ups per client address per hour |
/// | `COMPASS_AUTH_OAUTH_SERVER_ENABLED` | false | `/admin/oauth/clients`: the OAuth 2.1 server's client registry |
/// | `COMPASS_AUTH_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION` | false | `POST /oauth/clients/register` without the admin key |
/// | `COMPASS_AUTH_RATE_LIMIT_OAUTH_REGISTRATIONS` | 30 | dynamic client registrations per client address per hour |
/// | `COMPASS_AUTH_MAILER_SUBJECTS_*`, `COMPASS_AUTH_MAILER_TEMPLATES_*` | (built in) | the mails' subjects and HTML files (``MailCustomization``) |
/// | `COMPASS_SMTP_*` | (none) | the SMTP server (``SMTPConfiguration``); without it no mail is sent |
public struct AuthConfiguration: Sendable, Hashable {
    /// Access-token lifetime in seconds.
    public var jwtExpiry = 3600
    /// Whether sign-up confirms the email at once (and returns a session).
    public var autoconfirm = true
    /// The shortest password accepted.
    public var minimumPasswordLength = 6
    /// Seconds during which a just-rotated refresh token still yields the session's active one.
    public var refreshReuseInterval: TimeInterval = 10
    /// Failed sign-ins allowed per email within ``rateLimitWindow``.
    public var failedSignInsPerEmail = 10
    /// Failed sign-ins allowed per client address within ``rateLimitWindow``.
    public var failedSignInsPerAddress = 30
    /// The window failed sign-ins are counted over, in seconds.
    public var rateLimitWindow: TimeInterval = 300
    /// The largest request body read.
    public var maximumBodyBytes = 16 * 1024
    /// Connections of auth's own pool (sign-up, sign-in, refresh, admin).
    public var poolSize = 4
    /// The `iss` claim of access tokens.
    public var issuer = "compass"
    /// The app's URL: mailed links redirect there unless `redirect_to` names an allowed target.
    public var siteURL = "http://localhost:3000"
    /// Further allowed `redirect_to` targets (exact URLs or globs).
    public var redirectAllowList: [String] = []
    /// The public base URL of this server, for the links in mails (nil: `http://host:port` of the worker).
    public var externalURL: String?
    /// How long a mailed code or link is valid, in seconds (GoTrue's `MAILER_OTP_EXP`).
    public var otpExpiry: TimeInterval = 3600
    /// The shortest time between two mails of one kind to one user (GoTrue's `SMTP_MAX_FREQUENCY`).
    public var mailMinimumInterval: TimeInterval = 60
    /// Mails sent per hour across all users (GoTrue's `RATE_LIMIT_EMAIL_SENT`).
    public var mailsPerHour = 30
    /// `/verify` attempts per client address within ``rateLimitWindow``.
    public var verificationsPerAddress = 30
    /// Whether a password change needs the `/reauthenticate` code when the session is a day old.
    public var securePasswordChange = false
    /// Whether anonymous sign-ins are on (GoTrue's `EXTERNAL_ANONYMOUS_USERS_ENABLED`).
    public var anonymousUsers = false
    /// Anonymous sign-ups per client address per hour (GoTrue's `RATE_LIMIT_ANONYMOUS_USERS`).
    public var anonymousSignUpsPerHour = 30
    /// Whether the OAuth 2.1 server's client registry is served (GoTrue's `OAUTH_SERVER_ENABLED`).
    public var oauthServer = false
    /// Whether anyone with the API key may register a client (GoTrue's
    /// `OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION`); needs ``oauthServer``.
    public var oauthDynamicRegistration = false
    /// Dynamic client registrations per client address per hour.
    public var oauthRegistrationsPerHour = 30
    /// The operator's own mail subjects and bodies.
    public var mailCustomization = MailCustomization()
    /// Where mails go; nil sends none (as GoTrue without SMTP settings).
    public var smtp: SMTPConfiguration?

    /// The defaults (GoTrue's).
    public init() {}

    /// Reads the environment; a malformed setting throws naming the variable.
    public init(reading environment: EnvironmentReader) throws(ConfigurationError) {
        // Up to a year: beyond it, `iat + exp` soon stops being a time.
        jwtExpiry = try environment.integer("COMPASS_AUTH_JWT_EXPIRY", in: 1...31_536_000) ?? jwtExpiry
        minimumPasswordLength = try environment.positiveInteger("COMPASS_AUTH_MIN_PASSWORD_LENGTH") ?? minimumPasswordLength
        failedSignInsPerEmail = try environment.positiveInteger("COMPASS_AUTH_RATE_LIMIT_EMAIL") ?? failedSignInsPerEmail
        failedSignInsPerAddress = try environment.positiveInteger("COMPASS_AUTH_RATE_LIMIT_ADDRESS") ?? failedSignInsPerAddress
        if let window = try environment.positiveInteger("COMPASS_AUTH_RATE_LIMIT_WINDOW") { rateLimitWindow = TimeInterval(window) }
        maximumBodyBytes = try environment.positiveInteger("COMPASS_AUTH_MAX_BODY_BYTES") ?? maximumBodyBytes
        if let seconds = try environment.nonNegativeInteger("COMPASS_AUTH_REFRESH_REUSE_INTERVAL") {
            refreshReuseInterval = TimeInterval(seconds)
        }
        autoconfirm = try environment.boolean("COMPASS_AUTH_AUTOCONFIRM") ?? autoconfirm
        poolSize = try environment.positiveInteger("COMPASS_AUTH_DB_POOL_SIZE") ?? poolSize
        siteURL = try environment.url("COMPASS_AUTH_SITE_URL") ?? siteURL
        externalURL = try environment.url("COMPASS_AUTH_EXTERNAL_URL")
        redirectAllowList = (environment.string("COMPASS_AUTH_URI_ALLOW_LIST") ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        if let seconds = try environment.positiveInteger("COMPASS_AUTH_MAILER_OTP_EXPIRY") { otpExpiry = TimeInterval(seconds) }
        if let seconds = try environment.integer("COMPASS_AUTH_MAILER_MIN_INTERVAL", in: 0...86_400) {
            mailMinimumInterval = TimeInterval(seconds)
        }
        mailsPerHour = try environment.positiveInteger("COMPASS_AUTH_RATE_LIMIT_EMAIL_SENT") ?? mailsPerHour
        verificationsPerAddress = try environment.positiveInteger("COMPASS_AUTH_RATE_LIMIT_VERIFY") ?? verificationsPerAddress
        smtp = try SMTPConfiguration(reading: environment)
        mailCustomization = try MailCustomization(reading: environment)
        anonymousUsers = try environment.boolean("COMPASS_AUTH_ANONYMOUS_USERS") ?? anonymousUsers
        securePasswordChange = try environment.boolean("COMPASS_AUTH_SECURE_PASSWORD_CHANGE") ?? securePasswordChange
        anonymousSignUpsPerHour = try environment.positiveInteger("COMPASS_AUTH_RATE_LIMIT_ANONYMOUS_USERS") ?? anonymousSignUpsPerHour
        oauthServer = try environment.boolean("COMPASS_AUTH_OAUTH_SERVER_ENABLED") ?? oauthServer
        oauthDynamicRegistration =
            try environment.boolean("COMPASS_AUTH_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION") ?? oauthDynamicRegistration
        oauthRegistrationsPerHour =
            try environment.positiveInteger("COMPASS_AUTH_RATE_LIMIT_OAUTH_REGISTRATIONS") ?? oauthRegistrationsPerHour
    }

    /// The longest password accepted, in UTF-8 bytes: bcrypt reads only the first 72, so a
    /// longer one would silently match any password sharing its first 72 bytes.
    public static let maximumPasswordBytes = 72

    /// Refuses a password longer than ``maximumPasswordBytes`` (GoTrue's 400 `validation_failed`,
    /// checked first as GoTrue does) or shorter than ``minimumPasswordLength`` (422 `weak_password`);
    /// both in UTF-8 bytes, as GoTrue counts them (`éééé` is 8).
    public func checkStrength(_ password: String) throws(AuthError) {
        guard password.utf8.count <= AuthConfiguration.maximumPasswordBytes else { throw .passwordTooLong }
        guard password.utf8.count >= minimumPasswordLength else { throw .weakPassword(minimum: minimumPasswordLength) }
    }
}

extension EnvironmentReader {
    /// An absolute http(s) URL, without a trailing slash.
    func url(_ name: String) throws(ConfigurationError) -> String? {
        guard let text = string(name) else { return nil }
        guard let components = URLComponents(string: text), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
            components.host?.isEmpty == false
        else { throw ConfigurationError(name, value: text, problem: "is not an http(s) URL") }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }
}
