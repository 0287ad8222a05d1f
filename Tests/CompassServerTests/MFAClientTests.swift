import CompassAuth
import CompassTestSupport
import Foundation
import Testing

/// MFA with TOTP through the official Python client, unchanged: enroll, challenge, verify
/// (the token says aal2), list, unenroll, the admin's list and delete; a code works once; secrets and codes stay out of logs.
/// Fails (never skips) when the virtualenv cannot be made.
@Suite("MFA with TOTP through the official Python client")
struct MFAClientTests {
    @Test func enrollChallengeVerifyListAndUnenroll() async throws {
        let python = try await PythonEnvironment.python(with: [RESTClientTests.requirement])
        let log = CapturedLog()
        var auth = AuthConfiguration()
        auth.siteURL = "http://app.compass.test"
        try await ServerHarness.with(auth: auth, logger: log.logger()) { harness in
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/mfa_flows.py").path
            let run = try await ChildProcess.run([python, script, harness.url, harness.keys.anon, harness.keys.serviceRole], timeout: .seconds(180))
            #expect(run.code == 0, "mfa_flows.py failed: \(run.error.suffix(3000))")
            guard run.code == 0, let line = run.output.split(separator: "\n").last else { return }
            let out = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(out["before"] as? [String: String] == ["current": "aal1", "next": "aal1"])
            let enrolled = try #require(out["enrolled"] as? [String: Any])
            #expect(enrolled["type"] as? String == "totp")
            #expect(enrolled["friendly_name"] as? String == "phone")
            #expect(enrolled["secret_length"] as? Int == 32)
            let uri = try #require(enrolled["uri"] as? String)
            #expect(uri.hasPrefix("otpauth://totp/Compass:mfa-"))
            #expect(uri.contains("issuer=Compass") && uri.contains("algorithm=SHA1") && uri.contains("digits=6") && uri.contains("period=30"))
            #expect(out["name_conflict"] as? String == "mfa_factor_name_conflict")
            #expect(out["phone_factor"] as? String == "mfa_phone_enroll_not_enabled")
            let unverified = try #require(out["listed_unverified"] as? [String: Any])
            #expect(unverified["all"] as? [String] == ["unverified"])
            #expect(unverified["totp"] as? Int == 0)
            let challenge = try #require(out["challenge"] as? [String: Any])
            #expect(challenge["has_id"] as? Bool == true)
            #expect((290...301).contains(challenge["expires_in"] as? Int ?? 0))
            #expect(out["wrong_code"] as? String == "mfa_verification_failed")
            #expect(out["unknown_challenge"] as? String == "mfa_factor_not_found")
            let verified = try #require(out["verified"] as? [String: Any])
            #expect(verified["aal"] as? String == "aal2")
            #expect(verified["amr"] as? [String] == ["totp", "password"])
            #expect(verified["user_factors"] as? [String] == ["verified"])
            let after = try #require(out["after"] as? [String: Any])
            #expect(after["current"] as? String == "aal2")
            #expect(after["next"] as? String == "aal2")
            #expect(after["methods"] as? [String] == ["totp", "password"])
            #expect(out["code_reused"] as? String == "mfa_verification_failed")
            #expect(out["challenge_reused"] as? String == "mfa_ip_address_mismatch")
            let listed = try #require(out["listed"] as? [String: Any])
            #expect((listed["totp"] as? [String])?.count == 1)
            #expect(listed["all"] as? Int == 1)
            #expect(out["refreshed_aal"] as? String == "aal2")
            #expect(out["second_device"] as? [String: String] == ["current": "aal1", "next": "aal2"])
            #expect(out["unenroll_at_aal1"] as? String == "insufficient_aal")
            // The admin API lists the user's factors, refuses an unknown user, and a user's token.
            #expect(out["admin_listed"] as? [String] == ["verified"])
            #expect(out["admin_other_user"] as? String == "user_not_found")
            #expect(out["admin_as_user"] as? String == "not_admin")
            #expect(out["admin_deleted"] as? Bool == true)
            #expect(out["admin_listed_after_delete"] as? Int == 0)
            #expect(out["unenrolled"] as? Bool == true)
            #expect(out["listed_after_unenroll"] as? Int == 0)
            #expect(out["aal_after_unenroll"] as? String == "aal1")
            // The secret and the codes never reach a log line.
            let text = log.text
            if let secret = out["secret"] as? String { #expect(!text.contains(secret), "the TOTP secret was logged") }
            for code in out["codes"] as? [String] ?? [] { #expect(!text.contains(code), "a TOTP code was logged") }
        }
    }
}
