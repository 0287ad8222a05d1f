import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Sends mail through the configured SMTP server, one connection per mail.
///
/// ```swift
/// try await SMTPClient(configuration: smtp).send(MailMessage(to: email, subject: s, html: body))
/// ```
/// EHLO, then STARTTLS when configured (refused if the server does not offer it, so neither
/// credentials nor links travel in clear), `AUTH PLAIN` (or `LOGIN`) when a user is set,
/// `MAIL FROM`, `RCPT TO`, `DATA`, `QUIT`. Nothing sent is ever logged.
struct SMTPClient: Sendable {
    let configuration: SMTPConfiguration

    /// Delivers `message` to the server, or throws a ``MailError`` naming the step that failed.
    func send(_ message: MailMessage) async throws(MailError) {
        do {
            try await sendWithinTimeout(message)
        } catch let error as MailError {
            throw error
        } catch {
            // A connection that broke mid-dialogue; NIO's errors carry no payload.
            throw MailError(step: "connection (\(type(of: error)))", code: nil)
        }
    }

    private func sendWithinTimeout(_ message: MailMessage) async throws {
        let timeout = configuration.timeout
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await deliver(message) }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw MailError(step: "timeout", code: nil)
            }
            defer { group.cancelAll() }
            _ = try await group.next()
        }
    }

    private func deliver(_ message: MailMessage) async throws {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(10))
                .connect(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw MailError(step: "connect", code: nil)
        }
        try await channel.executeThenClose { inbound, outbound in
            var session = Session(replies: SMTPReplyReader(inbound), outbound: outbound)
            _ = try await session.expect([220], step: "greeting")
            var hello = try await session.command("EHLO \(Self.helloName)", expect: [250], step: "EHLO")
            if configuration.startTLS {
                guard hello.advertises("STARTTLS") else { throw MailError(step: "STARTTLS (not offered)", code: nil) }
                _ = try await session.command("STARTTLS", expect: [220], step: "STARTTLS")
                try await startTLS(on: channel.channel)
                hello = try await session.command("EHLO \(Self.helloName)", expect: [250], step: "EHLO")
            }
            if let user = configuration.user {
                try await session.authenticate(user: user, password: configuration.password ?? "", mechanisms: hello.authMechanisms)
            }
            _ = try await session.command("MAIL FROM:<\(configuration.sender)>", expect: [250], step: "MAIL FROM")
            _ = try await session.command("RCPT TO:<\(message.to)>", expect: [250, 251], step: "RCPT TO")
            _ = try await session.command("DATA", expect: [354], step: "DATA")
            let domain = configuration.sender.split(separator: "@").last.map(String.init) ?? "localhost"
            let data = message.data(
                from: configuration.sender, senderName: configuration.senderName, messageID: "\(UUID().uuidString.lowercased())@\(domain)")
            _ = try await session.command(data + ".", expect: [250], step: "message")
            _ = try? await session.command("QUIT", expect: [221], step: "QUIT")
        }
    }

    /// Puts TLS in front of the connection's existing handlers (after the server's 220 to STARTTLS).
    private func startTLS(on channel: any Channel) async throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let file = configuration.trustedCertificatesFile { tls.additionalTrustRoots = [.file(file)] }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: tls)
        } catch {
            throw MailError(step: "TLS setup", code: nil)
        }
        // SNI takes a name, never an address literal.
        let isAddress = configuration.host.allSatisfy { $0.isHexDigit || $0 == "." || $0 == ":" }
        let serverName = isAddress ? nil : configuration.host
        try await channel.eventLoop.submit {
            let handler = try NIOSSLClientHandler(context: context, serverHostname: serverName)
            try channel.pipeline.syncOperations.addHandler(handler, position: .first)
        }.get()
    }

    /// The name this host greets with.
    static let helloName: String = {
        let name = ProcessInfo.processInfo.hostName
        return name.isEmpty || name.contains(where: { $0.isWhitespace }) ? "localhost" : name
    }()

    /// The command/reply exchange.
    private struct Session {
        var replies: SMTPReplyReader
        let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

        mutating func expect(_ codes: Set<Int>, step: String) async throws -> SMTPReply {
            let reply = try await replies.next(step: step)
            guard codes.contains(reply.code) else { throw MailError(step: step, code: reply.code) }
            return reply
        }

        mutating func command(_ line: String, expect codes: Set<Int>, step: String) async throws -> SMTPReply {
            try await outbound.write(ByteBuffer(string: line + "\r\n"))
            return try await expect(codes, step: step)
        }

        mutating func authenticate(user: String, password: String, mechanisms: Set<String>) async throws {
            func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
            if mechanisms.contains("PLAIN") || !mechanisms.contains("LOGIN") {
                _ = try await command("AUTH PLAIN " + base64("\u{0}\(user)\u{0}\(password)"), expect: [235], step: "AUTH")
            } else {
                _ = try await command("AUTH LOGIN", expect: [334], step: "AUTH")
                _ = try await command(base64(user), expect: [334], step: "AUTH")
                _ = try await command(base64(password), expect: [235], step: "AUTH")
            }
        }
    }
}
