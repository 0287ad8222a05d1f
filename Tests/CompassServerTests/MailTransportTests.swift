import CompassAuth
import CompassHTTP
import CompassTestSupport
import Foundation
import Testing

/// The SMTP client's transport security against a real server (aiosmtpd): STARTTLS with a
/// certificate to trust, and a refusal to send (credentials, links) in clear when the server
/// does not offer STARTTLS. A sign-up with confirmation on shows each: a mail, or a 500 and no account.
@Suite("Auth mail over STARTTLS")
struct MailTransportTests {
    static func configuration(port: Int, certificate: String?) -> AuthConfiguration {
        var auth = AuthConfiguration()
        auth.autoconfirm = false
        var smtp = SMTPConfiguration(host: "localhost", port: port, sender: "no-reply@compass.test")
        smtp.user = SMTPSink.user
        smtp.password = SMTPSink.password
        smtp.trustedCertificatesFile = certificate
        auth.smtp = smtp
        return auth
    }

    static func signUp(_ harness: ServerHarness, email: String) async throws -> Int? {
        let body = #"{"email":"\#(email)","password":"transport-pass"}"#
        return try await RawConnection.post(
            "/auth/v1/signup", port: harness.port, headers: ["apikey": harness.keys.anon, "Content-Type": "application/json"], body: body)
    }

    @Test func mailGoesOverSTARTTLSAndNeverInClear() async throws {
        let python = try await PythonEnvironment.python(with: MailFlowTests.requirements)
        try await SMTPSink.with(python: python, tls: true) { sink in
            // The operator's own subject and body (GoTrue's placeholders), read from a file.
            let templateFile = sink.directory + "/confirm.html"
            try #"<p>Welcome to <b>Compass</b> at {{ .SiteURL }}, {{.Email}}: <a href="{{ .ConfirmationURL }}">confirm</a> or type {{ .Token }}</p>"#
                .write(toFile: templateFile, atomically: true, encoding: .utf8)
            var auth = Self.configuration(port: sink.port, certificate: sink.certificate)
            auth.mailCustomization = try MailCustomization(
                reading: EnvironmentReader([
                    "COMPASS_AUTH_MAILER_SUBJECTS_CONFIRMATION": "Welcome to Compass",
                    "COMPASS_AUTH_MAILER_TEMPLATES_CONFIRMATION": templateFile,
                ]))
            try await ServerHarness.with(auth: auth) { harness in
                let status = try await Self.signUp(harness, email: "tls.user@example.com")
                #expect(status == 200)
                #expect(sink.mailCount == 1, "the confirmation went through STARTTLS and AUTH")
                let mail = try #require(sink.mails().first)
                #expect(mail.subject == "Welcome to Compass")
                #expect(mail.body.hasPrefix("<p>Welcome to <b>Compass</b> at http://localhost:3000, tls.user@example.com: <a href=\"http://"))
                #expect(mail.body.contains("/auth/v1/verify?token="))
                #expect(mail.body.range(of: #"or type \d{6}</p>"#, options: .regularExpression) != nil)
            }
            // Without trusting the self-signed certificate the handshake fails: no mail, no account.
            try await ServerHarness.with(auth: Self.configuration(port: sink.port, certificate: nil)) { harness in
                let status = try await Self.signUp(harness, email: "untrusted@example.com")
                #expect(status == 500)
                #expect(sink.mailCount == 1)
                let rows = try await harness.database.query("SELECT count(*)::int FROM auth.users WHERE email = 'untrusted@example.com'")
                let count = try rows[0].decode(Int.self, at: 0)
                #expect(count == 0)
            }
        }
        try await SMTPSink.with(python: python) { plain in
            try await ServerHarness.with(auth: Self.configuration(port: plain.port, certificate: nil)) { harness in
                let status = try await Self.signUp(harness, email: "clear@example.com")
                #expect(status == 500, "no STARTTLS offered: nothing is sent")
                #expect(plain.mailCount == 0)
            }
        }
    }
}

extension RawConnection {
    /// Sends one `POST` with `body`, `Connection: close` and the given headers; the reply's status code.
    static func post(_ target: String, port: Int, headers: [String: String], body: String) async throws -> Int? {
        let connection = try RawConnection(port: port)
        var text = "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        await connection.send(text + "\r\n" + body)
        return status(of: await connection.readUntilClosed(timeout: .seconds(60)).text)
    }
}
