/// An error in PostgREST's shape: an HTTP status, the `{"code","message","details","hint"}`
/// body (all four keys, null when empty) and any extra headers (`WWW-Authenticate`).
///
/// ```swift
/// throw RESTError.notEmbedded("actor")   // 400 PGRST108; every refusal is in RESTError+Catalog.swift
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
    /// The status line's reason phrase when a function chose one (`RAISE SQLSTATE 'PGRST'`'s
    /// `status_text`); nil for the status's own.
    public var statusText: String?

    /// Makes an error whose details (if any) are text. Only the catalog (`RESTError+Catalog.swift`)
    /// and the SQLSTATE mapping call this, so each code's status and wording are written once.
    init(
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
    /// Why a body is refused (PGRST102).
    enum BodyProblem: Sendable, Hashable {
        /// Not JSON, or not the object (or array of objects) the request needs.
        case emptyOrInvalidJSON
        /// An array whose objects do not all have the same keys.
        case mismatchedKeys
        /// A CSV line with another number of fields than the header.
        case mismatchedFieldCount
        /// A CSV body without a whole header line (empty, or no line break after the header).
        case missingCSVHeader
        /// A CSV body whose quoting RFC 4180 refuses (the reason says where).
        case malformedCSV(String)
        /// A `Content-Type` the request cannot take (`text/plain` for a table).
        case unacceptableContentType(String)
        /// Longer than the configured limit, in bytes.
        case tooLarge(limit: Int)
        /// A CSV body whose JSON would be more than `factor` times its size.
        case expandsTooMuch(factor: Int)
    }

    /// What a PGRST202 says was searched for: named parameters (a GET, a form), those or a
    /// single unnamed json/jsonb parameter (a JSON POST), or a single unnamed text/xml/bytea one.
    enum SearchedCall: Sendable, Hashable {
        case parameters
        case parametersOrJSON
        case unnamedParameter(String)
    }

    /// Why a row window is refused (PGRST103).
    enum RangeProblem: Sendable, Hashable {
        /// `Range: 9-3`.
        case lowerAboveUpper
        /// `limit=-1`.
        case negativeLimit
        /// An offset past the counted total.
        case offsetPastTotal(offset: Int, total: Int)
    }

    /// PostgREST syntax this server refuses (PGRST127).
    enum UnsupportedFeature: Sendable, Hashable {
        /// Filters on `/rpc/fn` when `fn` does not return rows of an exposed table.
        case filtersOnFunctionWithoutTable
        /// An aggregate inside a to-many spread (`...rel(col.sum())`), which PostgREST refuses too.
        case aggregatesInToManySpread
    }

    /// Why a bearer token is refused (PGRST301/PGRST303).
    enum JWTProblem: Sendable, Hashable {
        /// `Authorization: Bearer` without a token.
        case empty
        /// Not three base64url parts that decode; `parts` is how many dot-separated parts it has.
        case malformed(parts: Int)
        /// Signed, but no configured key verifies it.
        case badSignature
        /// `alg` is one this server does not verify (`none` is an unsecured token).
        case unsupportedAlgorithm(unsecured: Bool)
        /// An ES256/RS256 token whose `kid` names no configured signing key.
        case noSuitableKey
        case expired
        /// The payload lacks the claims a token needs.
        case unreadableClaims
        /// A time claim (`exp`, `nbf`, `iat`) is not a number.
        case claimNotANumber(String)
        /// `aud` is neither a string nor an array of strings.
        case audienceNotStrings
        /// `nbf` lies in the future (past the allowed skew).
        case notYetValid
        /// `iat` lies in the future (past the allowed skew).
        case issuedInFuture
    }

    /// What nests past its limit (PGRST100): both are parsed by recursion, one level per call.
    enum Nesting: Sendable, Hashable {
        /// Embeds inside embeds in `select=` (`COMPASS_REST_MAX_EMBED_DEPTH`).
        case embeds
        /// `and(…)`/`or(…)` groups inside each other in `or=`/`and=` (``LogicParser/maximumDepth``).
        case logicGroups
    }

    /// A statement `pg-safeupdate` refuses without a `WHERE` clause (21000).
    enum FilterlessStatement: String, Sendable, Hashable {
        case update = "UPDATE"
        case delete = "DELETE"
    }

    /// What went wrong inside the server (PGRSTX00).
    enum InternalFailure: Sendable, Hashable {
        /// The database client failed without a server error or a connection problem.
        case databaseClient
        /// Anything else; never described to the client.
        case unexpected
    }
}
