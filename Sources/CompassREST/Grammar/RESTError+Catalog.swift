import CompassHTTP
import Postgres

/// Every refusal the REST API writes itself, one factory per PostgREST error code, so a code's
/// status and wording live in one place (PostgREST declares them once too, in its `Error` module).
///
/// ```swift
/// guard let embed = node.embed(named: relation) else { throw .notEmbedded(relation) }
/// ```
/// Errors that come from Postgres keep its SQLSTATE; see `RESTError+Postgres.swift`.
extension RESTError {
    // MARK: Connection and schema cache (PGRST0xx)

    /// PGRST000, 503: the database cannot be reached.
    static var databaseUnreachable: RESTError {
        RESTError(status: 503, code: "PGRST000", message: "Database connection error.")
    }

    /// PGRST002, 503: the schema cache could not be loaded (yet).
    static var schemaCacheUnavailable: RESTError {
        RESTError(status: 503, code: "PGRST002", message: "Could not query the database for the schema cache. Retrying.")
    }

    /// PGRST003, no pooled connection came free in time: PostgREST answers 504; a saturated pool
    /// is the server being busy, so 503 (with `Retry-After`, added by the error middleware).
    static var poolTimeout: RESTError {
        RESTError(status: 503, code: "PGRST003", message: "Timed out acquiring connection from connection pool.")
    }

    /// The bodies being read on every connection together hold the server's budget
    /// (``ServerContext/bodyBudget``): 503, come back shortly. PostgREST has no such limit, nor a code.
    static var bodyBudgetExhausted: RESTError {
        RESTError(status: 503, code: "server_busy", message: BodyBudgetExhausted().description)
    }

    /// Large replies waiting on slow or stalled clients hold the server's budget
    /// (``ServerContext/replies``): 503, come back shortly. PostgREST has no such limit, nor a code.
    static var replyBudgetExhausted: RESTError {
        RESTError(status: 503, code: "server_busy", message: "the server is sending too many large replies at once; retry shortly")
    }

    // MARK: Request (PGRST1xx)

    /// PGRST100, 400: a query parameter (or header value) that does not parse, worded as Parsec words it.
    static func parse(_ what: String, input: String, column: Int, details: String) -> RESTError {
        RESTError(
            status: 400, code: "PGRST100",
            message: "\"failed to parse \(what) (\(input))\" (line 1, column \(column))", details: details)
    }

    /// PGRST100, 400: `select=` embeds or `and`/`or` groups nested past their limit. PostgREST has
    /// no such limit, so this reuses its code for a query parameter it cannot take, and says which.
    static func nestedTooDeep(_ nesting: Nesting, limit: Int, column: Int) -> RESTError {
        let (message, opening, hint) =
            switch nesting {
            case .embeds:
                ("select parameter nests embedded resources more than \(limit) levels deep", "embed",
                 "Select less deeply nested resources (the server's limit is COMPASS_REST_MAX_EMBED_DEPTH).")
            case .logicGroups:
                ("logic tree nests and/or groups more than \(limit) levels deep", "group", "Flatten the and/or groups.")
            }
        return RESTError(
            status: 400, code: "PGRST100", message: message,
            details: "The \(opening) opening at column \(column) is at depth \(limit + 1).", hint: hint)
    }

    /// PGRST101, 405: a method `/rpc/{function}` does not take (PUT, PATCH, DELETE).
    static func methodNotForFunctions(_ method: String) -> RESTError {
        RESTError(status: 405, code: "PGRST101", message: "Cannot use the \(method) method on RPC")
    }

    /// PGRST102: a body that is not the JSON the request needs (400), or too large to read (413).
    static func invalidBody(_ problem: BodyProblem) -> RESTError {
        let (status, message) =
            switch problem {
            case .emptyOrInvalidJSON: (400, "Empty or invalid json")
            case .mismatchedKeys: (400, "All object keys must match")
            case .mismatchedFieldCount: (400, "All lines must have same number of fields")
            case .missingCSVHeader: (400, "A CSV body needs a header line, ended by a line break")
            case .malformedCSV(let reason): (400, "Malformed CSV: \(reason)")
            case .unacceptableContentType(let type): (400, "Content-Type not acceptable: \(type)")
            case .tooLarge(let limit): (413, "Request body is larger than \(limit) bytes")
            case .expandsTooMuch(let factor): (413, "Request body as JSON would be more than \(factor) times its size")
            }
        return RESTError(status: status, code: "PGRST102", message: message)
    }

    /// PGRST103, 416: a row window that cannot be served.
    static func rangeNotSatisfiable(_ problem: RangeProblem) -> RESTError {
        let details =
            switch problem {
            case .lowerAboveUpper: "The lower boundary must be lower than or equal to the upper boundary in the Range header."
            case .negativeLimit: "Limit should be greater than or equal to zero."
            case .offsetPastTotal(let offset, let total): "An offset of \(offset) was requested, but there are only \(total) rows."
            }
        return RESTError(status: 416, code: "PGRST103", message: "Requested range not satisfiable", details: details)
    }

    /// PGRST106, 406: `Accept-Profile`/`Content-Profile` names a schema that is not exposed.
    static func schemaNotExposed(_ profile: String, exposed schemas: [String]) -> RESTError {
        RESTError(
            status: 406, code: "PGRST106", message: "Invalid schema: \(profile)",
            hint: "Only the following schemas are exposed: \(schemas.joined(separator: ", "))")
    }

    /// PGRST107, 406: `Accept` names only media types this server cannot produce.
    static func unavailableMediaTypes(_ types: [String]) -> RESTError {
        RESTError(status: 406, code: "PGRST107", message: "None of these media types are available: " + types.joined(separator: ", "))
    }

    /// PGRST105, 405: a `PUT` whose filters are not exactly its primary key's columns with `eq`.
    static var putFiltersNotPrimaryKey: RESTError {
        RESTError(status: 405, code: "PGRST105", message: "Filters must include all and only primary key columns with 'eq' operators")
    }

    /// PGRST108, 400: a filter, order or limit names an embed the `select` does not have.
    static func notEmbedded(_ name: String) -> RESTError {
        RESTError(
            status: 400, code: "PGRST108", message: "'\(name)' is not an embedded resource in this request",
            hint: "Verify that '\(name)' is included in the 'select' query parameter.")
    }

    /// PGRST111, 500: `response.headers` set to something other than `[{"Name": "value"}, …]`.
    static var malformedResponseHeaders: RESTError {
        RESTError(
            status: 500, code: "PGRST111",
            message: "response.headers guc must be a JSON array composed of objects with a single key and a string value")
    }

    /// PGRST112, 500: `response.status` set to something other than an HTTP status code.
    static var malformedResponseStatus: RESTError {
        RESTError(status: 500, code: "PGRST112", message: "response.status guc must be a valid status code")
    }

    /// PGRST114, 400: `limit`/`offset` on a `PUT`.
    static var putWithRange: RESTError {
        RESTError(status: 400, code: "PGRST114", message: "limit/offset querystring parameters are not allowed for PUT")
    }

    /// PGRST115, 400: a `PUT` whose body's primary key is not the one its filters name.
    static var putPrimaryKeyMismatch: RESTError {
        RESTError(status: 400, code: "PGRST115", message: "Payload values do not match URL in primary key column(s)")
    }

    /// PGRST116, 406, worded as PostgREST words it (supabase-swift reads "0 rows" as "no row").
    static func notSingleObject(rows: Int) -> RESTError {
        RESTError(
            status: 406, code: "PGRST116", message: "Cannot coerce the result to a single JSON object",
            details: "The result contains \(rows) rows")
    }

    /// PGRST118, 400: `order=relation(column)` on an embed that is not to-one.
    static func relatedOrderNotToOne(table: String, relation: String) -> RESTError {
        RESTError(
            status: 400, code: "PGRST118", message: "A related order on '\(relation)' is not possible",
            details: "'\(table)' and '\(relation)' do not form a many-to-one or one-to-one relationship")
    }

    /// PGRST122, 400: unknown `Prefer` values under `handling=strict`.
    static func invalidPreferences(_ preferences: [String]) -> RESTError {
        RESTError(
            status: 400, code: "PGRST122", message: "Invalid preferences given with handling=strict",
            details: "Invalid preferences: " + preferences.joined(separator: ", "))
    }

    /// PGRST123, 400: an aggregate in `select=` while aggregates are disabled (`COMPASS_REST_AGGREGATES`).
    static var aggregatesNotAllowed: RESTError {
        RESTError(status: 400, code: "PGRST123", message: "Use of aggregate functions is not allowed")
    }

    /// PGRST124, 400: `handling=strict` with `max-affected=n`, and the statement touched more rows.
    static func maxAffectedExceeded(rows: Int) -> RESTError {
        RESTError(
            status: 400, code: "PGRST124", message: "Query result exceeds max-affected preference constraint",
            details: "The query affects \(rows) rows")
    }

    /// PGRST128, 400: `max-affected` under `handling=strict` on a function that returns no set of rows.
    static var maxAffectedNeedsRows: RESTError {
        RESTError(
            status: 400, code: "PGRST128",
            message: "Function must return SETOF or TABLE when max-affected preference is used with handling=strict")
    }

    /// PGRST125, 404: a path under `/rest/v1` that names neither a table nor a function.
    static var invalidPath: RESTError {
        RESTError(status: 404, code: "PGRST125", message: "Invalid path specified in request URL")
    }

    /// PGRST126, 404: `GET /rest/v1/` while the OpenAPI description is disabled (`COMPASS_REST_OPENAPI_MODE=disabled`).
    static var openAPIDisabled: RESTError {
        RESTError(status: 404, code: "PGRST126", message: "Root endpoint metadata is disabled")
    }

    /// PGRST127, 400: PostgREST syntax this server does not implement.
    static func notImplemented(_ feature: UnsupportedFeature) -> RESTError {
        let details =
            switch feature {
            case .filtersOnFunctionWithoutTable: "Filters apply only to functions that return rows of an exposed table"
            case .aggregatesInToManySpread: "Aggregates are not implemented for one-to-many or many-to-many spreads."
            }
        return RESTError(status: 400, code: "PGRST127", message: "Feature not implemented", details: details)
    }

    // MARK: Schema cache lookups (PGRST2xx)

    /// PGRST200, 400: no foreign key ties `origin` to `target` (with the hint, when one was given).
    static func noRelationship(
        origin: String, target: String, hint: String?, schema: String, suggestion: (meant: String, insteadOf: String)?
    ) -> RESTError {
        RESTError(
            status: 400, code: "PGRST200",
            message: "Could not find a relationship between '\(origin)' and '\(target)' in the schema cache",
            details: "Searched for a foreign key relationship between '\(origin)' and '\(target)"
                + (hint.map { "' using the hint '\($0)" } ?? "")
                + "' in the schema '\(schema)', but no matches were found.",
            hint: suggestion.map { "Perhaps you meant '\($0.meant)' instead of '\($0.insteadOf)'." })
    }

    /// PGRST201, 300: several relationships fit; `details` is a JSON array describing each.
    static func ambiguousEmbedding(origin: String, target: String, relationships: [Relationship]) -> RESTError {
        let details = relationships.map { relationship in
            "{\"cardinality\":\(JSONText.quoted(relationship.cardinality.rawValue)),"
                + "\"embedding\":\(JSONText.quoted("\(relationship.table) with \(relationship.foreignTable)")),"
                + "\"relationship\":\(JSONText.quoted(relationship.summary))}"
        }
        var error = RESTError(
            status: 300, code: "PGRST201",
            message: "Could not embed because more than one relationship was found for '\(origin)' and '\(target)'",
            hint: "Try changing '\(target)' to one of the following: "
                + relationships.map { "'\($0.foreignTable)!\($0.junction?.table ?? $0.constraint)'" }.joined(separator: ", ")
                + ". Find the desired relationship in the 'details' key.")
        error.detailsJSON = "[" + details.joined(separator: ",") + "]"
        return error
    }

    /// PGRST202, 404: no function `name` takes exactly the argument `keys`; `suggestion` is a
    /// function name, or `name` with a parameter list, that comes close.
    static func functionNotFound(schema: String, name: String, keys: [String], searched: SearchedCall, suggestion: String?) -> RESTError {
        let qualified = "\(schema).\(name)"
        let parameters = keys.isEmpty ? " without parameters" : "(" + keys.joined(separator: ", ") + ")"
        let detailParameters = keys.isEmpty
            ? " without parameters" : " with parameter" + (keys.count > 1 ? "s " : " ") + keys.joined(separator: ", ")
        let (message, details): (String, String)
        switch searched {
        case .parameters:
            (message, details) = ("Could not find the function \(qualified)\(parameters) in the schema cache", detailParameters)
        case .parametersOrJSON:
            (message, details) = (
                "Could not find the function \(qualified)\(parameters) in the schema cache",
                detailParameters + " or with a single unnamed json/jsonb parameter"
            )
        case .unnamedParameter(let type):
            (message, details) = ("Could not find the function \(qualified) in the schema cache", " with a single unnamed \(type) parameter")
        }
        return RESTError(
            status: 404, code: "PGRST202", message: message,
            details: "Searched for the function \(qualified)\(details), but no matches were found in the schema cache.",
            hint: suggestion.map { "Perhaps you meant to call the function \(schema).\($0)" })
    }

    /// PGRST203, 300: the argument keys fit several overloads of `name`.
    static func ambiguousFunction(schema: String, name: String, candidates: [FunctionInfo]) -> RESTError {
        RESTError(
            status: 300, code: "PGRST203",
            message: "Could not choose the best candidate function between: "
                + candidates.map { "\(schema).\(name)(" + $0.parameters.map { "\($0.name) => \($0.type)" }.joined(separator: ", ") + ")" }
                .joined(separator: ", "),
            hint: "Try renaming the parameters or the function itself in the database so function overloading can be resolved")
    }

    /// PGRST204, 400: a body key or `columns=` entry the table does not have.
    static func columnNotFound(_ column: String, table: String) -> RESTError {
        RESTError(status: 400, code: "PGRST204", message: "Could not find the '\(column)' column of '\(table)' in the schema cache")
    }

    /// PGRST205, 404: no table or view `name`; `suggestion` is a close name, if any.
    static func tableNotFound(schema: String, name: String, suggestion: String?) -> RESTError {
        RESTError(
            status: 404, code: "PGRST205", message: "Could not find the table '\(schema).\(name)' in the schema cache",
            hint: suggestion.map { "Perhaps you meant the table '\(schema).\($0)'" })
    }

    // MARK: Tokens (PGRST3xx)

    /// PGRST301 (the token cannot be read or verified) or PGRST303 (its claims are not acceptable),
    /// 401 with the `WWW-Authenticate` challenge RFC 6750 asks for.
    static func invalidJWT(_ problem: JWTProblem) -> RESTError {
        let (code, message, details): (String, String, String?) =
            switch problem {
            case .empty: ("PGRST301", "Empty JWT is sent in Authorization header", nil)
            case .malformed(let parts):
                ("PGRST301", parts == 3 ? "JWT cryptographic operation failed" : "Expected 3 parts in JWT; got \(parts)", nil)
            case .badSignature: ("PGRST301", "No suitable key or wrong key type", "None of the keys was able to decode the JWT")
            case .unsupportedAlgorithm(let unsecured):
                ("PGRST301", "Wrong or unsupported encoding algorithm", unsecured ? "JWT is unsecured but expected 'alg' was not 'none'" : nil)
            case .noSuitableKey: ("PGRST301", "No suitable key or wrong key type", nil)
            case .expired: ("PGRST303", "JWT expired", nil)
            case .unreadableClaims: ("PGRST303", "Parsing claims failed", nil)
            case .claimNotANumber(let claim): ("PGRST303", "The JWT '\(claim)' claim must be a number", nil)
            case .audienceNotStrings: ("PGRST303", "The JWT 'aud' claim must be a string or an array of strings", nil)
            case .notYetValid: ("PGRST303", "JWT not yet valid", nil)
            case .issuedInFuture: ("PGRST303", "JWT issued at future", nil)
            }
        return RESTError(
            status: 401, code: code, message: message, details: details,
            headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\", error_description=\(JSONText.quoted(message))"])
    }

    // MARK: Internal (PGRSTX00)

    /// PGRSTX00, 500: a failure that is not the client's and says nothing about it.
    static func internalFailure(_ failure: InternalFailure) -> RESTError {
        let message =
            switch failure {
            case .databaseClient: "Database client error."
            case .unexpected: "Internal server error"
            }
        return RESTError(status: 500, code: "PGRSTX00", message: message)
    }

    // MARK: SQLSTATE refusals, worded as Postgres words them

    /// 42703: a column the table does not have, refused before any SQL runs.
    static func undefinedColumn(_ column: String, table: String) -> RESTError {
        RESTError(sqlState: .undefinedColumn, message: "column \(table).\(column) does not exist", isAuthenticated: false)
    }

    /// 42704: a `::cast` to a type outside the allowed list.
    static func undefinedType(_ name: String) -> RESTError {
        RESTError(sqlState: .undefinedObject, message: "type \"\(name)\" does not exist", isAuthenticated: false)
    }

    /// 21000, 400: PATCH or DELETE without a filter, refused as `pg-safeupdate` refuses the
    /// statement under Supabase's PostgREST (its wording; `COMPASS_REST_SAFE_UPDATE=false` allows it).
    static func missingWhereClause(_ statement: FilterlessStatement) -> RESTError {
        RESTError(sqlState: .cardinalityViolation, message: "\(statement.rawValue) requires a WHERE clause", isAuthenticated: false)
    }

    /// 22021 or 22P05, 400: a text value holds the NUL character, which Postgres cannot store. The
    /// server's message is kept (it names no value); the internal "in parameter $n" is not.
    static func nulCharacter(sqlState state: SQLState, message: String, details: String?) -> RESTError {
        RESTError(
            sqlState: state, message: message, details: details,
            hint: "Text values cannot contain the NUL character (\\u0000); remove it and send the request again.",
            isAuthenticated: false)
    }

    /// 22021, 400: request bytes that are not UTF-8 (an escape in the query string, the body),
    /// refused with Postgres's words for them rather than passed on as U+FFFD.
    static func invalidUTF8(_ sequence: [UInt8], in place: String) -> RESTError {
        RESTError(
            sqlState: .characterNotInRepertoire,
            message: "invalid byte sequence for encoding \"UTF8\": \(UTF8Validation.describe(sequence))",
            details: "The bytes are in \(place).", hint: "Send text as UTF-8.", isAuthenticated: false)
    }

    /// 54000, 500: the reply's JSON is larger than the configured limit, so Postgres withheld it.
    /// The code is the one Postgres gives past its own (1 GB) limit on a value, which PostgREST
    /// answers with 500; it is not the client's syntax, but a smaller page will succeed.
    static func replyTooLarge(bytes: Int, limit: Int) -> RESTError {
        RESTError(
            sqlState: SQLState(rawValue: "54000"), message: "Response body is larger than \(limit) bytes",
            details: "The response would be \(bytes) bytes; COMPASS_REST_MAX_REPLY_BYTES sets the limit.",
            hint: "Request fewer rows (limit and offset, or a Range header) or fewer columns.", isAuthenticated: false)
    }

    /// 22023: a token whose role the database does not have (Postgres's 63-byte name limit applied).
    static func unknownRole(_ role: String) -> RESTError {
        RESTError(sqlState: .invalidParameterValue, message: "role \"\(role.prefix(63))\" does not exist", isAuthenticated: false)
    }
}

extension Relationship {
    /// How PGRST201 describes it: `fk using a(x) and b(y)`, or for many-to-many
    /// `junction using fk1(x) and fk2(y)`.
    var summary: String {
        func list(_ names: [String]) -> String { "(" + names.joined(separator: ", ") + ")" }
        if let junction {
            return "\(junction.table) using \(junction.sourceConstraint)\(list(junction.sourceColumns.map(\.1)))"
                + " and \(junction.targetConstraint)\(list(junction.targetColumns.map(\.1)))"
        }
        return "\(constraint) using \(table)\(list(columns.map(\.0))) and \(foreignTable)\(list(columns.map(\.1)))"
    }
}
