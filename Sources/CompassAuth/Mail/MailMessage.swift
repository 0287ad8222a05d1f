import Foundation

/// One mail to one recipient: an HTML body, ASCII headers.
///
/// Addresses reach here checked (``AuthAPI/email(_:)`` refuses whitespace, so no CR/LF can
/// inject a header); the subject and body come from ``MailTemplate``.
struct MailMessage: Sendable {
    var to: String
    var subject: String
    var html: String

    /// The DATA section: headers, blank line, body, with CRLF line ends and dot-stuffing, ending
    /// before the terminating `.` line.
    func data(from sender: String, senderName: String?, date: Date = Date(), messageID: String) -> String {
        let from = senderName.map { "\"\(MailMessage.quoted($0))\" <\(sender)>" } ?? "<\(sender)>"
        let headers = [
            "From: \(from)", "To: <\(to)>", "Subject: \(MailMessage.encodedWord(subject))",
            "Date: \(MailMessage.rfc5322Date(date))", "Message-ID: <\(messageID)>", "MIME-Version: 1.0",
            "Content-Type: text/html; charset=utf-8", "Content-Transfer-Encoding: base64",
        ]
        // base64 in 76-column lines: any byte is safe and no line starts with a dot.
        let body = Data(html.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        return headers.joined(separator: "\r\n") + "\r\n\r\n" + body + "\r\n"
    }

    /// A header value in RFC 2047 form when it is not plain ASCII.
    static func encodedWord(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { !$0.isASCII || $0.value < 0x20 }) else { return text }
        return "=?utf-8?B?" + Data(text.utf8).base64EncodedString() + "?="
    }

    static func quoted(_ name: String) -> String {
        String(name.unicodeScalars.filter { $0.isASCII && $0.value >= 0x20 && $0 != "\"" && $0 != "\\" }.map(Character.init))
    }

    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
