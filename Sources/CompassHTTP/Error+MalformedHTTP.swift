import NIOHTTP1

extension Error {
    /// Whether the HTTP/1 decoder refused the request's bytes: a body that ended early (the
    /// client hung up mid-body) or was malformed. The client's doing, answered 400, never a 500.
    public var isMalformedHTTP: Bool { self is HTTPParserError }
}
