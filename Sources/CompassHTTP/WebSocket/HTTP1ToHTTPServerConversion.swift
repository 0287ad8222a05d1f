import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// swift-nio-extras' `HTTP1ToHTTPServerCodec` (HTTP/1 parts to swift-http-types' and back), but
/// a request target in origin form (`/path?query`, what every client sends) becomes the path as
/// it is, without Foundation.
///
/// The codec parses every target with `URLComponents` to take the path out of an absolute-form
/// one (`http://host/path`, sent to proxies); for a target without a scheme that parse always
/// gives the target back unchanged, so it was pure cost on every request (up to 1 % of a one-row
/// REST read's CPU). Any other target still goes through the codec's own conversion.
final class HTTP1ToHTTPServerConversion: ChannelDuplexHandler, RemovableChannelHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The request a plain-HTTP server receives as `head` (cookies left as one field), as the codec makes it.
    static func request(from head: HTTPRequestHead) throws -> HTTPRequest {
        guard head.uri.utf8.first == UInt8(ascii: "/") else {
            return try HTTPRequest(head, secure: false, splitCookie: false)
        }
        return HTTPRequest(
            method: try HTTPRequest.Method(head.method), scheme: "http", authority: head.headers["Host"].first,
            path: head.uri, headerFields: HTTPFields(head.headers, splitCookie: false))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            do {
                context.fireChannelRead(wrapInboundOut(.head(try Self.request(from: head))))
            } catch {
                context.fireErrorCaught(error)
            }
        case .body(let body):
            context.fireChannelRead(wrapInboundOut(.body(body)))
        case .end(let trailers):
            context.fireChannelRead(wrapInboundOut(.end(trailers.map { HTTPFields($0, splitCookie: false) })))
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            context.write(wrapOutboundOut(.head(HTTPResponseHead(response))), promise: promise)
        case .body(let body):
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: promise)
        case .end(let trailers):
            context.write(wrapOutboundOut(.end(trailers.map(HTTPHeaders.init))), promise: promise)
        }
    }
}
