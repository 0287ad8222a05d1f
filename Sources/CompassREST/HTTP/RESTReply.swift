import CompassHTTP
import HTTPTypes
import Hummingbird
import Logging

/// Responses in PostgREST's forms.
enum RESTReply {
    static let json = "application/json; charset=utf-8"

    /// A body Postgres already rendered as JSON (or none), with the given headers.
    static func body(status: Int, _ body: String?, contentType: String = json, headers: [String: String] = [:]) -> Response {
        var fields = HTTPFields()
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPField.Name(name) { fields[field] = value }
        }
        guard let body else { return Response(status: .init(code: status), headers: fields) }
        return JSONReply.text(status: .init(code: status), body, headers: fields, contentType: contentType)
    }

    /// A reply's body in its negotiated representation: text as it is, or the bytes of a binary
    /// handler's body, which the statement sent as hex.
    static func body(status: Int, _ body: String, media: ReplyMediaType, headers: [String: String] = [:]) -> Response {
        Self.body(status: status, ByteBuffer(string: body), media: media, headers: headers)
    }

    /// ``body(status:_:media:headers:)`` for a body already in bytes (Postgres's, unchanged).
    static func body(status: Int, _ body: ByteBuffer, media: ReplyMediaType, headers: [String: String] = [:]) -> Response {
        var response = Self.body(status: status, nil, headers: headers)
        response.headers[.contentType] = media.contentType
        let bytes = media.isBinary ? ByteBuffer(bytes: HexBytes.decode(body.readableBytesView)) : body
        response.body = ResponseBody(byteBuffer: bytes)
        return response
    }

    /// `response` as the answer to a HEAD: no body and, as PostgREST's, no `Content-Length`
    /// (the body a GET would get is never built, so its length is not known).
    static func withoutBody(_ response: Response) -> Response {
        var response = response
        response.headers[.contentLength] = nil
        response.body = ResponseBody(contentLength: nil) { writer in try await writer.finish(nil) }
        return response
    }

    /// An error: its status, its headers (and `Proxy-Status` naming its code, as PostgREST
    /// sends), and the four-key body.
    static func error(_ error: RESTError) -> Response {
        var headers = error.headers
        headers["Proxy-Status"] = "PostgREST; error=\(error.code)"
        var response = body(status: error.status, error.body, headers: headers)
        // swift-http-types replaces what a status line may not hold (a line break) with spaces.
        if let text = error.statusText { response.status = .init(code: error.status, reasonPhrase: text) }
        return response
    }
}

extension RESTAPI {
    /// PostgREST's 404 PGRST125 for a `/rest/v1` path no route takes (`POST /rest/v1/`, `/rest/v1/rpc/`).
    public static var invalidPathReply: Response { RESTReply.error(.invalidPath) }
}

/// A ``RESTError`` as the reply Hummingbird sends (``ErrorReplyMiddleware`` on the `/rest/v1` group).
struct RESTErrorReply: HTTPResponseError {
    let error: RESTError

    var status: HTTPResponse.Status { .init(code: error.status) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        RESTReply.error(error)
    }

    /// PostgREST's reply for whatever a REST route threw; anything but a ``RESTError`` is a bug, logged, and a bare 500.
    @Sendable static func translating(_ error: any Error, request: Request, logger: Logger) -> any HTTPResponseError {
        if let error = error as? RESTError { return RESTErrorReply(error: error) }
        logger.error("REST request failed", metadata: ["error": "\(String(reflecting: type(of: error)))", "path": "\(request.uri.path)"])
        return RESTErrorReply(error: .internalFailure(.unexpected))
    }
}
