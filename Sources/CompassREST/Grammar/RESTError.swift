/// An error in PostgREST's shape: an HTTP status, the `{"code","message","details","hint"}`
/// body (all four keys, null when empty) and any extra headers (`WWW-Authenticate`).
///
/// ```swift
/// throw RESTError(status: 404, code: "PGRST205", message: "Could not find the table 'public.x' in the schema cache")
/// ```
/// Messages never carry bound values the request did not itself show the client.
public struct RESTError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status (PostgREST's mapping).
    public var status: Int
    /// `PGRSTnnn` or a SQLSTATE.
    public var code: String
    /// The one-line message.
    public var message: String
    /// `details` as a JSON value: a string, an array (PGRST201) or nil for null.
    public var detailsJSON: String?
    /// `hint`, or nil for null.
    public var hint: String?
    /// Extra response headers, name and value.
    public var headers: [String: String]

    /// Makes an error whose details (if any) are text.
    public init(
        status: Int, code: String, message: String, details: String? = nil, hint: String? = nil,
        headers: [String: String] = [:]
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.detailsJSON = details.map(JSONText.quoted)
        self.hint = hint
        self.headers = headers
    }

    /// The details as text, when they are a JSON string.
    public var details: String? {
        guard let detailsJSON, detailsJSON.hasPrefix("\"") else { return nil }
        return JSONText.unquoted(detailsJSON)
    }

    /// The response body: `{"code":…,"details":…,"hint":…,"message":…}`.
    public var body: String {
        "{\"code\":\(JSONText.quoted(code)),\"details\":\(detailsJSON ?? "null"),"
            + "\"hint\":\(hint.map(JSONText.quoted) ?? "null"),\"message\":\(JSONText.quoted(message))}"
    }

    public var description: String { "\(status) \(code): \(message)" }
}

extension RESTError {
    /// PGRST100: a query parameter (or header value) that does not parse.
    static func parse(_ what: String, input: String, column: Int, details: String) -> RESTError {
        RESTError(
            status: 400, code: "PGRST100",
            message: "\"failed to parse \(what) (\(input))\" (line 1, column \(column))", details: details)
    }

    /// PGRST102: a body that is not the JSON the request needs.
    static func invalidBody(_ message: String) -> RESTError {
        RESTError(status: 400, code: "PGRST102", message: message)
    }
}
