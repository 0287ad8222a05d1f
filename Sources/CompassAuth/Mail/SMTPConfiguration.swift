import CompassHTTP
import Foundation

/// Where auth's mails go: an SMTP server, as GoTrue's `GOTRUE_SMTP_*` settings name it.
///
/// | variable | default | meaning |
/// |---|---|---|
/// | `COMPASS_SMTP_HOST` | (none: no mail is sent) | the SMTP server |
/// | `COMPASS_SMTP_PORT` | 587 | its port |
/// | `COMPASS_SMTP_USER`, `COMPASS_SMTP_PASSWORD` | (none) | `AUTH PLAIN` credentials |
/// | `COMPASS_SMTP_SENDER` | (required with a host) | the `From` address (GoTrue's `SMTP_ADMIN_EMAIL`) |
/// | `COMPASS_SMTP_SENDER_NAME` | (none) | the `From` display name |
/// | `COMPASS_SMTP_STARTTLS` | true | upgrade with STARTTLS before anything else is sent; a server that does not offer it is refused |
public struct SMTPConfiguration: Sendable, Hashable {
    public var host: String
    public var port = 587
    public var user: String?
    public var password: String?
    public var sender: String
    public var senderName: String?
    /// Whether the session must be upgraded to TLS (credentials and links never go in clear).
    public var startTLS = true
    /// A PEM file of certificates to trust besides the system's (a private mail relay).
    public var trustedCertificatesFile: String?
    /// How long one mail may take, connection to `QUIT`.
    public var timeout: Duration = .seconds(30)

    /// A server at `host`, mails from `sender`.
    public init(host: String, port: Int = 587, sender: String) {
        self.host = host
        self.port = port
        self.sender = sender
    }

    /// The environment's SMTP server, or nil when `COMPASS_SMTP_HOST` is unset.
    public init?(reading environment: EnvironmentReader) throws(ConfigurationError) {
        guard let host = environment.string("COMPASS_SMTP_HOST") else { return nil }
        self.host = host
        port = try environment.integer("COMPASS_SMTP_PORT", in: 1...65535) ?? port
        sender = try environment.required("COMPASS_SMTP_SENDER")
        guard (try? AuthAPI.email(sender)) != nil else {
            throw ConfigurationError("COMPASS_SMTP_SENDER", value: sender, problem: "is not an email address")
        }
        senderName = environment.string("COMPASS_SMTP_SENDER_NAME")
        user = environment.string("COMPASS_SMTP_USER")
        if user != nil { password = try environment.secret("COMPASS_SMTP_PASSWORD") }
        startTLS = try environment.boolean("COMPASS_SMTP_STARTTLS") ?? startTLS
        trustedCertificatesFile = environment.string("COMPASS_SMTP_CA_FILE")
    }
}
