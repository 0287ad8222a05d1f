import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import CompassHTTP

/// The body clock blames the client only for what the server asked it to send.
@Suite("Request body clock")
struct HTTPRequestGuardTests {
    static func channel() throws -> (EmbeddedChannel, EmbeddedEventLoop) {
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(handler: HTTPRequestGuard(limits: HTTPLimits(), client: ClientConnection()), loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/rest/v1/schools")
        head.headers.add(name: "content-length", value: "100000")
        try channel.writeInbound(HTTPServerRequestPart.head(head))
        return (channel, loop)
    }

    /// The reply the guard wrote, if any.
    static func status(_ channel: EmbeddedChannel) throws -> HTTPResponseStatus? {
        guard case .head(let head)? = try channel.readOutbound(as: HTTPServerResponsePart.self) else { return nil }
        return head.status
    }

    @Test func aBodyTheServerDoesNotAskForIsNotCutOffAtOnce() throws {
        let (channel, loop) = try Self.channel()
        // A busy handler asks for nothing: the client could not send, so it is not refused.
        loop.advanceTime(by: .seconds(35))
        #expect(try Self.status(channel) == nil)
        // Once asked, a body that does not come is 408.
        channel.read()
        loop.advanceTime(by: .seconds(11))
        #expect(try Self.status(channel) == .requestTimeout)
    }

    @Test func aHandlerThatNeverAsksIsCutOffAfterAFewWindows() throws {
        let (channel, loop) = try Self.channel()
        loop.advanceTime(by: .seconds(Int64(10 * (HTTPRequestGuard.maximumWindowsWithoutReads + 1) + 1)))
        #expect(try Self.status(channel) == .requestTimeout)
    }
}
