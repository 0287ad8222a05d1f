import NIOCore
import Testing

@testable import CompassAuth

/// SMTP replies are read from the server's bytes as they come, whatever their encoding.
@Suite("SMTP reply reader")
struct SMTPReplyReaderTests {
    /// The replies read from `chunks` as they arrive.
    static func replies(_ chunks: [[UInt8]], count: Int) async throws -> [SMTPReply] {
        let (stream, source) = NIOAsyncChannelInboundStream<ByteBuffer>.makeTestingStream()
        for chunk in chunks { source.yield(ByteBuffer(bytes: chunk)) }
        source.finish()
        var reader = SMTPReplyReader(stream)
        var replies: [SMTPReply] = []
        for _ in 0..<count { replies.append(try await reader.next(step: "test")) }
        return replies
    }

    @Test("a Latin-1 greeting and a multi-line reply split across chunks are read whole")
    func latin1AndSplitReplies() async throws {
        let greeting: [UInt8] = Array("220 Gr".utf8) + [0xFC, 0xDF, 0x65] + Array(" mail\r\n".utf8)
        let ehlo = Array("250-mail.example.com\r\n250-STARTTLS\r\n250 AUTH PLAIN LOGIN\r\n".utf8)
        let replies = try await Self.replies([greeting + ehlo.prefix(9), Array(ehlo.dropFirst(9))], count: 2)
        #expect(replies[0].code == 220)
        #expect(replies[1].code == 250)
        #expect(replies[1].lines == ["mail.example.com", "STARTTLS", "AUTH PLAIN LOGIN"])
        #expect(replies[1].advertises("STARTTLS"))
        #expect(replies[1].authMechanisms == ["PLAIN", "LOGIN"])
    }

    @Test("a line that is not a reply, or an end before one, is an error")
    func notSMTP() async throws {
        await #expect(throws: MailError.self) { try await Self.replies([Array("+12 hello\r\n".utf8)], count: 1) }
        await #expect(throws: MailError.self) { try await Self.replies([Array("25\r\n".utf8)], count: 1) }
        await #expect(throws: MailError.self) { try await Self.replies([Array("250-half a reply\r\n".utf8)], count: 1) }
    }
}
