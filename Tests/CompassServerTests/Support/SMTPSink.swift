import CompassTestSupport
import Foundation

/// A real SMTP server process (aiosmtpd, `Python/smtp_sink.py`) that keeps each mail it receives
/// as a file in ``directory``, requiring AUTH with ``user`` and ``password``.
struct SMTPSink {
    static let user = "compass-mailer"
    static let password = "sink-password-0123"

    let port: Int
    let directory: String
    /// With `tls`: the sink's self-signed certificate (for `localhost`), to trust.
    let certificate: String?

    /// Runs `body` with a sink listening on a free local port; stops it afterwards. With `tls` it
    /// offers STARTTLS with a fresh self-signed certificate for `localhost` and requires it.
    static func with<T>(python: String, tls: Bool = false, _ body: (SMTPSink) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-sink-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var tlsArguments: [String] = []
        if tls {
            let (certificate, key) = (directory + "/cert.pem", directory + "/key.pem")
            let made = try await ChildProcess.run([
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1",
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
            ])
            guard made.code == 0 else { throw HarnessError("openssl req failed: \(made.error.suffix(1000))") }
            tlsArguments = [certificate, key]
        }
        let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/smtp_sink.py").path
        let process = try ChildProcess([python, script, directory, user, password] + tlsArguments)
        defer { process.terminate() }
        try await process.waitForOutput(containing: "listening ", timeout: .seconds(30))
        guard let line = process.output.split(separator: "\n").first(where: { $0.hasPrefix("listening ") }),
            let port = Int(line.dropFirst("listening ".count).trimmingCharacters(in: .whitespaces))
        else { throw HarnessError("smtp_sink.py printed no port: \(process.output)") }
        return try await body(SMTPSink(port: port, directory: directory, certificate: tlsArguments.first))
    }

    /// The mails received so far.
    var mailCount: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".eml") }.count
    }

    /// Each mail received, in order: its `Subject` header and its body (base64 decoded).
    func mails() -> [(subject: String, body: String)] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
        return files.compactMap { file in
            guard let text = try? String(contentsOfFile: directory + "/" + file, encoding: .utf8) else { return nil }
            let normalized = text.replacingOccurrences(of: "\r\n", with: "\n")
            guard let split = normalized.range(of: "\n\n") else { return nil }
            let headers = normalized[..<split.lowerBound].split(separator: "\n")
            let subject = headers.first { $0.hasPrefix("Subject: ") }.map { String($0.dropFirst("Subject: ".count)) } ?? ""
            let encoded = normalized[split.upperBound...].split(separator: "\n").joined()
            let body = Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return (subject, body)
        }
    }
}
