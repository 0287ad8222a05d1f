import NIOCore
import NIOHTTP1

/// Sits right after the HTTP/1 decoder of every connection and keeps a client from holding a
/// socket it does not use: malformed requests are answered (400, 414, 431, 505) and closed, and a
/// request head must arrive within the header timeout (the idle timeout after a response).
/// When the client goes away mid-request it tells the request's ``ClientConnection``, so the
/// request's statement is cancelled.
///
/// NIO's decoder reports a malformed request as an error and stops; without this handler the
/// upgrade handler behind it never decides and the socket stays open with no reply. Removed on
/// a WebSocket upgrade (frames are not HTTP).
final class HTTPRequestGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let limits: HTTPLimits
    private let client: ClientConnection
    /// Large reply parts written and not yet sent, counted with every other connection's.
    private let replies: ByteBudget?
    /// The clock for a request body that must keep coming.
    private var deadline: Scheduled<Void>?
    /// The clock for the next request head (see ``startClock(context:timeout:)``): when it runs out,
    /// nil while a request is being read or answered.
    private var headDeadline: NIODeadline?
    /// The timer that checks `headDeadline`, and when it fires; it may fire before the deadline.
    private var headTimer: (task: Scheduled<Void>, firesAt: NIODeadline)?
    /// A request head was read and its response has not ended yet.
    private var responding = false
    /// The handler has begun writing its response (its head went out).
    private var responseStarted = false
    /// A request's body is still arriving.
    private var readingBody = false
    /// Body bytes since the body's clock last started.
    private var bodyBytesThisWindow = 0
    /// Reads the server asked for since the body's clock last started: none means the handler is
    /// not taking the body yet (backpressure while the worker is busy), which is not the client's fault.
    private var readsThisWindow = 0
    /// Header timeouts in a row in which the server asked for none of the body.
    private var windowsWithoutReads = 0
    /// How many such windows a body may wait before it is cut off anyway.
    static let maximumWindowsWithoutReads = 5
    /// What a body must bring each header timeout to keep its connection: a byte every few
    /// seconds would otherwise hold it forever.
    static let minimumBodyBytesPerWindow = 1024
    private var closed = false
    /// The connection ends with this response (see ``endsConnection(_:)``): the request is passed
    /// on as `Connection: close`, and the response says so.
    private var closeAfterResponse = false

    init(limits: HTTPLimits, client: ClientConnection, replies: ByteBudget? = nil) {
        self.limits = limits
        self.client = client
        self.replies = replies
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startClock(context: context, timeout: limits.headerTimeout) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startClock(context: context, timeout: limits.headerTimeout)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        client.clientLeft()
        context.fireChannelInactive()
    }

    /// The client closed its side: an HTTP/1.1 client does that only when it gives up (nobody
    /// half-closes and waits for a reply), so the request in flight is abandoned.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            client.clientLeft()
            if responding { context.close(promise: nil) }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func read(context: ChannelHandlerContext) {
        readsThisWindow += 1
        context.read()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        stopHeadTimer()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closed else { return }
        var data = data
        switch unwrapInboundIn(data) {
        case .head(var head):
            deadline?.cancel()
            deadline = nil
            headDeadline = nil
            guard head.uri.utf8.count <= limits.maximumURLBytes else {
                refuse(context: context, status: .uriTooLong)
                return
            }
            // Many tiny fields cost per field everywhere after this (the request's header object, its JSON).
            guard head.headers.count <= limits.maximumHeaderFields else {
                refuse(context: context, status: .requestHeaderFieldsTooLarge)
                return
            }
            if head.headers.contains(name: "transfer-encoding") {
                // HTTP/1.0 has no transfer codings: RFC 9112 calls such framing faulty.
                guard head.version != .http1_0 else {
                    refuse(context: context, status: .badRequest)
                    return
                }
                // A body coded other than `chunked` (`gzip, chunked`) would be read as if it were not.
                guard Self.isOnlyChunked(head) else {
                    refuse(context: context, status: .notImplemented)
                    return
                }
            }
            // One scan without allocating for every request; the upgrade rules only for those that ask.
            let asksUpgrade = head.headers.contains(name: "upgrade")
            // NIO's upgrader passes over these without a word, and drops the request with them.
            if asksUpgrade, let refusal = Self.malformedWebSocketUpgrade(head) {
                refuse(context: context, status: refusal.status, headers: refusal.headers)
                return
            }
            responding = true
            closeAfterResponse = (asksUpgrade || head.version == .http1_0) && Self.endsConnection(head)
            if asksUpgrade && Self.asksForAnotherProtocol(head) {
                // `curl --http2` asks for h2c: answer in HTTP/1.1, as a server may ignore Upgrade.
                // NIO's upgrade handler would drop the request instead of passing it on.
                head.headers.remove(name: "upgrade")
                data = wrapInboundOut(.head(head))
            }
            if closeAfterResponse {
                // The server closes after a request that says `Connection: close`: so it is told.
                head.headers.replaceOrAdd(name: "connection", value: "close")
                data = wrapInboundOut(.head(head))
            }
            // A body must keep coming: a kilobyte (or its end) within each header timeout.
            if Self.hasBody(head) {
                startBodyClock(context: context)
                // curl asks before sending a body over a kilobyte, and waits a second for the answer.
                if !asksUpgrade, Self.expectsContinue(head) {
                    context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .continue))), promise: nil)
                }
            }
        case .body(let part):
            if readingBody {
                bodyBytesThisWindow += part.readableBytes
                if bodyBytesThisWindow >= Self.minimumBodyBytesPerWindow { startBodyClock(context: context) }
            }
        case .end(let trailers):
            // Trailer fields cost what header fields do: the same cap.
            if let trailers, trailers.count > limits.maximumHeaderFields {
                refuse(context: context, status: .requestHeaderFieldsTooLarge)
                return
            }
            if readingBody {
                readingBody = false
                deadline?.cancel()
                deadline = nil
            }
        }
        context.fireChannelRead(data)
    }

    /// An upgrade to WebSocket that RFC 6455 refuses: not an HTTP/1.1 GET, without `Connection: Upgrade`
    /// or without a key (400), or a version other than 13 (426, naming the version served).
    ///
    /// Without `Connection: Upgrade` the HTTP decoder does not stop after the request, so it
    /// would decode bytes sent behind it as another request, which NIO then hands to the
    /// WebSocket's frame decoder (a trap that took the worker down).
    static func malformedWebSocketUpgrade(_ head: HTTPRequestHead) -> (status: HTTPResponseStatus, headers: HTTPHeaders)? {
        let protocols = head.headers[canonicalForm: "upgrade"]
        guard protocols.contains(where: { $0.lowercased().hasPrefix("websocket") }) else { return nil }
        guard head.method == .GET, head.version == .http1_1,
            head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "upgrade" }),
            !(head.headers.first(name: "sec-websocket-key") ?? "").isEmpty
        else {
            return (.badRequest, [:])
        }
        guard head.headers.first(name: "sec-websocket-version") == "13" else {
            return (.upgradeRequired, ["Sec-WebSocket-Version": "13"])
        }
        return nil
    }

    /// Whether the request asks to switch to protocols none of which is WebSocket (h2c, anything else).
    static func asksForAnotherProtocol(_ head: HTTPRequestHead) -> Bool {
        let protocols = head.headers[canonicalForm: "upgrade"]
        return !protocols.isEmpty && !protocols.contains { $0.lowercased().hasPrefix("websocket") }
    }

    /// Whether the connection ends with this request's response: HTTP/1.0 that did not ask to be
    /// kept alive (HTTP/1.1's handlers no longer see the version), or an upgrade declined above
    /// (once a request says `Connection: upgrade`, the decoder reads nothing after it).
    static func endsConnection(_ head: HTTPRequestHead) -> Bool {
        let options = head.headers[canonicalForm: "connection"].map { $0.lowercased() }
        if head.version == .http1_0 && !options.contains("keep-alive") { return true }
        return asksForAnotherProtocol(head) && options.contains("upgrade")
    }

    /// Whether an HTTP/1.1 request waits for `100 Continue` before it sends its body.
    static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
        head.version == .http1_1 && head.headers[canonicalForm: "expect"].contains { $0.lowercased() == "100-continue" }
    }

    /// Whether `Transfer-Encoding` says `chunked` and nothing else, the one coding this server reads.
    static func isOnlyChunked(_ head: HTTPRequestHead) -> Bool {
        let codings = head.headers[canonicalForm: "transfer-encoding"].map { $0.trimmingASCIISpaces().lowercased() }
        return codings == ["chunked"]
    }

    /// Whether the request announces a body (a length above zero, or chunks).
    static func hasBody(_ head: HTTPRequestHead) -> Bool {
        if let length = head.headers.first(name: "content-length").flatMap(Int.init) { return length > 0 }
        return head.headers.contains(name: "transfer-encoding")
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Once refused (or cut off), the handler's own late reply must not follow the refusal.
        guard !closed else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head where !closeAfterResponse:
            responseStarted = true
        case .head(var response):
            responseStarted = true
            response.headers.replaceOrAdd(name: "connection", value: "close")
            context.write(wrapOutboundOut(.head(response)), promise: promise)
            return
        case .end:
            responding = false
            responseStarted = false
            startClock(context: context, timeout: limits.idleTimeout)
        case .body(.byteBuffer(let part)) where part.readableBytes >= ServerContext.countedReplyPartBytes:
            if let replies {
                // Counted until the socket took it (or the connection ended without sending it).
                let bytes = part.readableBytes
                replies.add(bytes)
                let written = context.eventLoop.makePromise(of: Void.self)
                written.futureResult.whenComplete { result in
                    replies.release(bytes)
                    switch result {
                    case .success: promise?.succeed()
                    case .failure(let error): promise?.fail(error)
                    }
                }
                context.write(data, promise: written)
                return
            }
        default:
            break
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Bytes behind a request that ends its connection (`Connection: close`, HTTP/1.0): by
        // then the request is being answered, and the connection closes after that reply anyway.
        if let error = error as? HTTPParserError, error == .closedConnection, closeAfterResponse || responding {
            return
        }
        if let error = error as? HTTPParserError, !closed {
            refuse(context: context, status: Self.status(for: error))
        }
        context.fireErrorCaught(error)
    }

    /// The reply for a request the decoder could not read.
    static func status(for error: HTTPParserError) -> HTTPResponseStatus {
        switch error {
        case .headerOverflow: return .requestHeaderFieldsTooLarge
        case .invalidVersion: return .httpVersionNotSupported
        default: return .badRequest
        }
    }

    /// Answers `status` with `Connection: close` (unless the handler's response has begun: then
    /// only closes) and closes. A request whose body turned out malformed (a bad chunk size) is
    /// answered too: its handler is still waiting for the body.
    private func refuse(context: ChannelHandlerContext, status: HTTPResponseStatus, headers extra: HTTPHeaders = [:]) {
        closed = true
        deadline?.cancel()
        deadline = nil
        stopHeadTimer()
        guard !responseStarted else {
            context.close(promise: nil)
            return
        }
        var headers: HTTPHeaders = ["Connection": "close", "Content-Length": "0"]
        headers.add(contentsOf: extra)
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        // Lingering close: a client still sending (a 1 MB header) would get a reset instead of
        // the reply if unread bytes were left behind, so stop writing, read (and drop) a while, then close.
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            let context = loopBound.value
            context.close(mode: .output, promise: nil)
            context.eventLoop.scheduleTask(in: .seconds(2)) { loopBound.value.close(promise: nil) }
        }
    }

    /// Closes the connection (408 if nothing was answered yet) when the body stalls for the header timeout.
    private func startBodyClock(context: ChannelHandlerContext, keepingWindowCount: Bool = false) {
        readingBody = true
        bodyBytesThisWindow = 0
        readsThisWindow = 0
        if !keepingWindowCount { windowsWithoutReads = 0 }
        deadline?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: TimeAmount(limits.headerTimeout)) { [weak self] in
            guard let self, self.readingBody, !self.closed else { return }
            // The server did not ask for more: the client could not have sent it. Wait another
            // window, a few at most (a handler that never takes its body must not hold the socket).
            if self.readsThisWindow == 0, self.windowsWithoutReads < Self.maximumWindowsWithoutReads {
                self.windowsWithoutReads += 1
                self.startBodyClock(context: loopBound.value, keepingWindowCount: true)
                return
            }
            self.readingBody = false
            self.responding = false  // the handler is still waiting for the body: nothing was answered
            self.refuse(context: loopBound.value, status: .requestTimeout)
        }
    }

    /// Closes the connection if no complete request head arrives within `timeout`.
    ///
    /// Called after every response, so it moves a deadline rather than scheduling a task each
    /// time: a timer already due by then stays, and when it fires early it waits out the rest.
    private func startClock(context: ChannelHandlerContext, timeout: Duration) {
        deadline?.cancel()
        deadline = nil
        let due = NIODeadline.now() + TimeAmount(timeout)
        headDeadline = due
        if let timer = headTimer, timer.firesAt <= due { return }
        scheduleHeadTimer(context: context, at: due)
    }

    private func scheduleHeadTimer(context: ChannelHandlerContext, at due: NIODeadline) {
        headTimer?.task.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let task = context.eventLoop.scheduleTask(deadline: due) { [weak self] in
            guard let self else { return }
            self.headTimer = nil
            guard let deadline = self.headDeadline, !self.responding, !self.closed else { return }
            if deadline > .now() {
                self.scheduleHeadTimer(context: loopBound.value, at: deadline)
                return
            }
            self.closed = true
            loopBound.value.close(promise: nil)
        }
        headTimer = (task, due)
    }

    private func stopHeadTimer() {
        headTimer?.task.cancel()
        headTimer = nil
        headDeadline = nil
    }
}
