import CompassAuth
import CompassTestSupport
import Foundation
import Testing

/// The account lifecycle with mail, end to end: the official Python client signs up with
/// confirmation, recovers a password, signs in with a magic link and a code, asks for a
/// confirmation again and goes through PKCE, while a real SMTP server (aiosmtpd, with AUTH)
/// receives every mail.
/// Fails (never skips) when the virtualenv cannot be made.
@Suite("Auth mail flows through a real SMTP server")
struct MailFlowTests {
    static let requirements = [RESTClientTests.requirement, "aiosmtpd==1.4.6"]
    static let siteURL = "http://app.compass.test"
    static let publicURL = "https://compass.test"

    @Test func signUpConfirmRecoverMagicLinkAndResend() async throws {
        let python = try await PythonEnvironment.python(with: Self.requirements)
        let log = CapturedLog()
        try await SMTPSink.with(python: python) { sink in
            var auth = AuthConfiguration()
            auth.autoconfirm = false
            auth.siteURL = Self.siteURL
            auth.redirectAllowList = ["http://app.compass.test/**"]
            auth.externalURL = Self.publicURL
            auth.mailMinimumInterval = 0
            auth.anonymousUsers = true
            var smtp = SMTPConfiguration(host: "127.0.0.1", port: sink.port, sender: "no-reply@compass.test")
            smtp.senderName = "Compass"
            smtp.user = SMTPSink.user
            smtp.password = SMTPSink.password
            smtp.startTLS = false
            auth.smtp = smtp
            try await ServerHarness.with(auth: auth, logger: log.logger()) { harness in
                let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/mail_flows.py").path
                let run = try await ChildProcess.run(
                    [python, script, harness.url, harness.keys.anon, sink.directory, Self.siteURL], timeout: .seconds(180))
                #expect(run.code == 0, "mail_flows.py failed: \(run.error.suffix(3000))")
                guard run.code == 0, let line = run.output.split(separator: "\n").last else { return }
                let out = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                Self.check(out)
                // Neither a code nor a link token ever reaches a log line.
                let text = log.text
                for code in out["codes"] as? [String] ?? [] { #expect(!text.contains("<strong>\(code)")) }
                for link in out["links"] as? [String] ?? [] {
                    let token = URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value ?? "?"
                    #expect(!text.contains(token), "a link token was logged")
                }
                #expect(!text.contains(SMTPSink.password))
            }
        }
    }

    static func check(_ out: [String: Any]) {
        #expect(out["sign_up_session"] as? Bool == false)
        #expect(out["sign_up_identities"] as? Int == 1)
        let mail = out["confirm_mail"] as? [String: String]
        #expect(mail?["to"] == "new.parent@example.com")
        #expect(mail?["subject"] == "Confirm Your Signup")
        #expect(mail?["from"] == "Compass <no-reply@compass.test>")
        #expect(out["confirm_link_base"] as? String == publicURL + "/auth/v1/verify")
        #expect(out["signin_unconfirmed"] as? String == "email_not_confirmed")
        let confirm = out["confirm"] as? [String: Any]
        #expect(confirm?["status"] as? Int == 303)
        #expect(confirm?["base"] as? String == siteURL)
        #expect(confirm?["type"] as? String == "signup")
        #expect(confirm?["has_token"] as? Bool == true)
        #expect(out["confirmed_at"] as? Bool == true)
        #expect(out["identity_verified"] as? Bool == true)
        let again = out["confirm_again"] as? [String: Any]
        #expect(again?["status"] as? Int == 303)
        #expect(again?["error"] as? String == "access_denied")
        #expect(again?["error_code"] as? String == "otp_expired")

        #expect(out["recovery_subject"] as? String == "Reset Your Password")
        #expect(out["recovery_redirect"] as? String == siteURL, "a redirect_to off the allow-list falls back to the site")
        #expect(out["wrong_code"] as? String == "otp_expired")
        #expect(out["recovered"] as? Bool == true)
        #expect(out["old_password"] as? String == "invalid_credentials")
        #expect(out["new_password"] as? Bool == true)
        #expect(out["unknown_recovery_no_mail"] as? Bool == true)

        #expect(out["magic_subject"] as? String == "Your Magic Link")
        let magic = out["magic_link"] as? [String: Any]
        #expect(magic?["status"] as? Int == 303)
        #expect(magic?["base"] as? String == siteURL + "/welcome")
        #expect(magic?["type"] as? String == "magiclink")
        #expect(magic?["has_token"] as? Bool == true)
        #expect(out["email_otp"] as? Bool == true)
        #expect(out["otp_no_create"] as? String == "otp_disabled")
        #expect(out["otp_new_subject"] as? String == "Confirm Your Signup")
        #expect(out["otp_new_verified"] as? Bool == true)

        #expect(out["resend_subject"] as? String == "Confirm Your Signup")
        #expect(out["resend_old_code"] as? String == "otp_expired")
        #expect(out["resend_new_code"] as? Bool == true)
        #expect(out["resend_confirmed_no_mail"] as? Bool == true)

        #expect(out["change_pending"] as? String == "changed.parent@example.com")
        #expect(out["change_subjects"] as? [String] == ["Confirm Email Change", "Confirm Email Change"])
        #expect(out["change_after_first"] as? Bool == false, "one of two confirmations changes nothing yet")
        let second = out["change_second"] as? [String: Any]
        #expect(second?["status"] as? Int == 303)
        #expect(second?["type"] as? String == "email_change")
        #expect(second?["has_token"] as? Bool == true)
        #expect(out["changed_sign_in"] as? Bool == true)

        let anonymous = out["anonymous"] as? [String: Any]
        #expect(anonymous?["user"] as? Bool == true)
        #expect(anonymous?["claim"] as? Bool == true)
        #expect(anonymous?["identities"] as? Int == 0)
        let linked = out["anonymous_linked"] as? [String: Any]
        #expect(linked?["anonymous"] as? Bool == false)
        #expect(linked?["email"] as? String == "was.guest@example.com")
        #expect(linked?["identities"] as? [String] == ["email"])
        #expect(out["anonymous_password"] as? Bool == true)

        let pkce = out["pkce_link"] as? [String: Any]
        #expect(pkce?["status"] as? Int == 303)
        #expect(pkce?["marked"] as? Bool == true)
        #expect(pkce?["target"] as? String == siteURL + "/reset")
        #expect(pkce?["code"] as? Bool == true)
        #expect(pkce?["session_in_url"] as? Bool == false)
        #expect(out["pkce_wrong_verifier"] as? String == "bad_code_verifier")
        #expect(out["pkce_session"] as? Bool == true)
        #expect(out["pkce_replay"] as? String == "flow_state_not_found")
    }
}
