import NIOCore

/// One SMTP reply: its code and whether it listed `keyword` (EHLO's extensions).
struct SMTPReply: Sendable {
    var code: Int
    /// The text of each line, without the code.
    var lines: [String]

    /// Whether an EHLO reply advertises `keyword` (`STARTTLS`, `AUTH`), case-insensitively.
    func advertises(_ keyword: String) -> Bool {
        lines.contains { $0.uppercased() == keyword || $0.uppercased().hasPrefix(keyword + " ") }
    }

    /// The mechanisms of an `AUTH …` line.
    var authMechanisms: Set<String> {
        guard let line = lines.first(where: { $0.uppercased().hasPrefix("AUTH ") }) else { return [] }
        return Set(line.uppercased().split(separator: " ").dropFirst().map(String.init))
    }
}

/// Reads whole (possibly multi-line) replies from the server's bytes.
struct SMTPReplyReader {
    private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private var buffer = ByteBuffer()
    /// A server writing this much without ending a reply is not speaking SMTP.
    static let maximumReplyBytes = 64 * 1024

    init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) {
        iterator = inbound.makeAsyncIterator()
    }

    /// The next reply; throws when the connection ends first or the bytes are not SMTP.
    mutating func next(step: String) async throws -> SMTPReply {
        while true {
            if let reply = try parse(step: step) { return reply }
            guard buffer.readableBytes < Self.maximumReplyBytes, var chunk = try await iterator.next() else {
                throw MailError(step: step, code: nil)
            }
            buffer.writeBuffer(&chunk)
        }
    }

    /// A complete reply at the front of the buffer, consumed; nil when more bytes are needed.
    ///
    /// Lines are found in the bytes themselves: a server's text need not be UTF-8 (a Latin-1
    /// greeting), and counting it after repair would count bytes that are not there.
    private mutating func parse(step: String) throws -> SMTPReply? {
        let bytes = Array(buffer.readableBytesView)
        var lines: [String] = []
        var lineStart = 0
        var index = 0
        while index + 1 < bytes.count {
            guard bytes[index] == UInt8(ascii: "\r"), bytes[index + 1] == UInt8(ascii: "\n") else {
                index += 1
                continue
            }
            let line = bytes[lineStart..<index]
            guard line.count >= 3, line.prefix(3).allSatisfy({ (0x30...0x39).contains($0) }),
                let code = Int(String(decoding: line.prefix(3), as: UTF8.self))
            else { throw MailError(step: step, code: nil) }
            lines.append(line.count > 4 ? String(decoding: line.dropFirst(4), as: UTF8.self) : "")
            if line.count == 3 || line[line.startIndex + 3] == UInt8(ascii: " ") {
                buffer.moveReaderIndex(forwardBy: index + 2)
                return SMTPReply(code: code, lines: lines)
            }
            index += 2
            lineStart = index
        }
        return nil
    }
}

/// Why a mail was not sent: the SMTP step and the server's reply code (never its text, which
/// could echo what was sent, nor any credential).
struct MailError: Error, Sendable, CustomStringConvertible {
    var step: String
    var code: Int?

    var description: String {
        "SMTP \(step) failed" + (code.map { " (reply \($0))" } ?? " (no reply)")
    }
}
