import Postgres
import Testing

@testable import CompassREST

/// Each refusal in the catalog keeps PostgREST's status, code and wording (supabase clients
/// match on codes, and some on messages), and Postgres's errors keep PostgREST's statuses.
@Suite("REST refusal catalog")
struct RESTErrorCatalogTests {
    /// A refusal and what a client must see of it.
    struct Expected: Sendable, CustomTestStringConvertible {
        var error: RESTError
        var status: Int
        var code: String
        var message: String
        var details: String? = nil
        var hint: String? = nil

        var testDescription: String { "\(code) \(message)" }
    }

    static let refusals: [Expected] = [
        Expected(error: .databaseUnreachable, status: 503, code: "PGRST000", message: "Database connection error."),
        Expected(
            error: .schemaCacheUnavailable, status: 503, code: "PGRST002",
            message: "Could not query the database for the schema cache. Retrying."),
        Expected(error: .poolTimeout, status: 503, code: "PGRST003", message: "Timed out acquiring connection from connection pool."),
        Expected(
            error: .parse("filter", input: "noop.0", column: 1, details: "unexpected \"n\""), status: 400, code: "PGRST100",
            message: "\"failed to parse filter (noop.0)\" (line 1, column 1)", details: "unexpected \"n\""),
        Expected(error: .invalidBody(.emptyOrInvalidJSON), status: 400, code: "PGRST102", message: "Empty or invalid json"),
        Expected(error: .invalidBody(.mismatchedKeys), status: 400, code: "PGRST102", message: "All object keys must match"),
        Expected(error: .invalidBody(.tooLarge(limit: 1024)), status: 413, code: "PGRST102", message: "Request body is larger than 1024 bytes"),
        Expected(
            error: .rangeNotSatisfiable(.lowerAboveUpper), status: 416, code: "PGRST103", message: "Requested range not satisfiable",
            details: "The lower boundary must be lower than or equal to the upper boundary in the Range header."),
        Expected(
            error: .rangeNotSatisfiable(.negativeLimit), status: 416, code: "PGRST103", message: "Requested range not satisfiable",
            details: "Limit should be greater than or equal to zero."),
        Expected(
            error: .rangeNotSatisfiable(.offsetPastTotal(offset: 30, total: 12)), status: 416, code: "PGRST103",
            message: "Requested range not satisfiable", details: "An offset of 30 was requested, but there are only 12 rows."),
        Expected(
            error: .schemaNotExposed("private", exposed: ["public", "v2"]), status: 406, code: "PGRST106", message: "Invalid schema: private",
            hint: "Only the following schemas are exposed: public, v2"),
        Expected(
            error: .unavailableMediaTypes(["text/html", "image/png"]), status: 406, code: "PGRST107",
            message: "None of these media types are available: text/html, image/png"),
        Expected(
            error: .notEmbedded("actor"), status: 400, code: "PGRST108", message: "'actor' is not an embedded resource in this request",
            hint: "Verify that 'actor' is included in the 'select' query parameter."),
        Expected(
            error: .notSingleObject(rows: 0), status: 406, code: "PGRST116", message: "Cannot coerce the result to a single JSON object",
            details: "The result contains 0 rows"),
        Expected(
            error: .relatedOrderNotToOne(table: "schools", relation: "interactions"), status: 400, code: "PGRST118",
            message: "A related order on 'interactions' is not possible",
            details: "'schools' and 'interactions' do not form a many-to-one or one-to-one relationship"),
        Expected(
            error: .invalidPreferences(["bogus", "x=y"]), status: 400, code: "PGRST122", message: "Invalid preferences given with handling=strict",
            details: "Invalid preferences: bogus, x=y"),
        Expected(
            error: .notImplemented(.filtersOnFunctionWithoutTable), status: 400, code: "PGRST127", message: "Feature not implemented",
            details: "Filters apply only to functions that return rows of an exposed table"),
        Expected(
            error: .noRelationship(origin: "interactions", target: "school", hint: "h", schema: "public", suggestion: ("schools", "school")),
            status: 400, code: "PGRST200", message: "Could not find a relationship between 'interactions' and 'school' in the schema cache",
            details: "Searched for a foreign key relationship between 'interactions' and 'school' using the hint 'h' in the schema 'public',"
                + " but no matches were found.",
            hint: "Perhaps you meant 'schools' instead of 'school'."),
        Expected(
            error: .functionNotFound(schema: "public", name: "add", keys: ["a", "c"], searched: .parametersOrJSON, suggestion: "add(a, b)"), status: 404, code: "PGRST202",
            message: "Could not find the function public.add(a, c) in the schema cache",
            details: "Searched for the function public.add with parameters a, c or with a single unnamed json/jsonb parameter,"
                + " but no matches were found in the schema cache.",
            hint: "Perhaps you meant to call the function public.add(a, b)"),
        Expected(
            error: .functionNotFound(schema: "public", name: "add", keys: [], searched: .parametersOrJSON, suggestion: nil), status: 404, code: "PGRST202",
            message: "Could not find the function public.add without parameters in the schema cache",
            details: "Searched for the function public.add without parameters or with a single unnamed json/jsonb parameter,"
                + " but no matches were found in the schema cache."),
        Expected(
            error: .ambiguousFunction(schema: "public", name: "add", candidates: [Self.function("integer"), Self.function("text")]),
            status: 300, code: "PGRST203",
            message: "Could not choose the best candidate function between: public.add(a => integer), public.add(a => text)",
            hint: "Try renaming the parameters or the function itself in the database so function overloading can be resolved"),
        Expected(
            error: .columnNotFound("nope", table: "follows"), status: 400, code: "PGRST204",
            message: "Could not find the 'nope' column of 'follows' in the schema cache"),
        Expected(
            error: .tableNotFound(schema: "public", name: "interaction", suggestion: "interactions"), status: 404, code: "PGRST205",
            message: "Could not find the table 'public.interaction' in the schema cache",
            hint: "Perhaps you meant the table 'public.interactions'"),
        Expected(error: .invalidJWT(.malformed(parts: 2)), status: 401, code: "PGRST301", message: "Expected 3 parts in JWT; got 2"),
        Expected(error: .invalidJWT(.malformed(parts: 3)), status: 401, code: "PGRST301", message: "JWT cryptographic operation failed"),
        Expected(
            error: .invalidJWT(.badSignature), status: 401, code: "PGRST301", message: "No suitable key or wrong key type",
            details: "None of the keys was able to decode the JWT"),
        Expected(
            error: .invalidJWT(.unsupportedAlgorithm(unsecured: true)), status: 401, code: "PGRST301",
            message: "Wrong or unsupported encoding algorithm", details: "JWT is unsecured but expected 'alg' was not 'none'"),
        Expected(error: .invalidJWT(.noSuitableKey), status: 401, code: "PGRST301", message: "No suitable key or wrong key type"),
        Expected(error: .invalidJWT(.expired), status: 401, code: "PGRST303", message: "JWT expired"),
        Expected(error: .invalidJWT(.unreadableClaims), status: 401, code: "PGRST303", message: "Parsing claims failed"),
        Expected(error: .internalFailure(.databaseClient), status: 500, code: "PGRSTX00", message: "Database client error."),
        Expected(error: .internalFailure(.unexpected), status: 500, code: "PGRSTX00", message: "Internal server error"),
        Expected(error: .undefinedColumn("nope", table: "interactions"), status: 400, code: "42703", message: "column interactions.nope does not exist"),
        Expected(error: .undefinedType("regclass"), status: 400, code: "42704", message: "type \"regclass\" does not exist"),
        Expected(
            error: .unknownRole(String(repeating: "r", count: 70)), status: 401, code: "22023",
            message: "role \"\(String(repeating: "r", count: 63))\" does not exist"),
        Expected(
            error: .nestedTooDeep(.embeds, limit: 8, column: 17), status: 400, code: "PGRST100",
            message: "select parameter nests embedded resources more than 8 levels deep",
            details: "The embed opening at column 17 is at depth 9.",
            hint: "Select less deeply nested resources (the server's limit is COMPASS_REST_MAX_EMBED_DEPTH)."),
        Expected(
            error: .nestedTooDeep(.logicGroups, limit: 16, column: 65), status: 400, code: "PGRST100",
            message: "logic tree nests and/or groups more than 16 levels deep", details: "The group opening at column 65 is at depth 17.",
            hint: "Flatten the and/or groups."),
        Expected(error: .missingWhereClause(.update), status: 400, code: "21000", message: "UPDATE requires a WHERE clause"),
        Expected(error: .missingWhereClause(.delete), status: 400, code: "21000", message: "DELETE requires a WHERE clause"),
        Expected(
            error: .replyTooLarge(bytes: 2048, limit: 1024), status: 500, code: "54000", message: "Response body is larger than 1024 bytes",
            details: "The response would be 2048 bytes; COMPASS_REST_MAX_REPLY_BYTES sets the limit.",
            hint: "Request fewer rows (limit and offset, or a Range header) or fewer columns."),
    ]

    static func function(_ type: String) -> FunctionInfo {
        FunctionInfo(
            name: "add", parameters: [.init(name: "a", type: type, hasDefault: false)], returnsSet: false, returnsScalar: true,
            returnsVoid: false, returnTable: nil, volatility: .immutable)
    }

    @Test(arguments: refusals)
    func refusalKeepsPostgRESTsStatusCodeAndWording(_ expected: Expected) {
        #expect(expected.error.status == expected.status)
        #expect(expected.error.code == expected.code)
        #expect(expected.error.message == expected.message)
        #expect(expected.error.details == expected.details)
        #expect(expected.error.hint == expected.hint)
    }

    @Test func onlyUnauthorizedRefusalsChallenge() {
        for expected in Self.refusals where expected.status != 401 {
            #expect(expected.error.headers.isEmpty, "\(expected.code) carries headers")
        }
        #expect(RESTError.unknownRole("x").headers == ["WWW-Authenticate": "Bearer"])
        #expect(
            RESTError.invalidJWT(.expired).headers
                == ["WWW-Authenticate": #"Bearer error="invalid_token", error_description="JWT expired""#])
    }

    @Test func ambiguousEmbeddingDetailsAreAJSONArray() {
        let relationships = [("actor_id", "actor_fkey"), ("user_id", "user_fkey")].map { column, constraint in
            Relationship(
                table: "activities", foreignTable: "profiles", constraint: constraint, columns: [(column, "user_id")],
                cardinality: .manyToOne, holdsForeignKey: true)
        }
        let error = RESTError.ambiguousEmbedding(origin: "activities", target: "profiles", relationships: relationships)
        #expect(error.status == 300)
        #expect(error.code == "PGRST201")
        #expect(error.details == nil)
        #expect(
            error.body
                == #"{"code":"PGRST201","details":[{"cardinality":"many-to-one","embedding":"activities with profiles","#
                + #""relationship":"actor_fkey using activities(actor_id) and profiles(user_id)"},{"cardinality":"many-to-one","#
                + #""embedding":"activities with profiles","relationship":"user_fkey using activities(user_id) and profiles(user_id)"}],"#
                + #""hint":"Try changing 'profiles' to one of the following: 'profiles!actor_fkey', 'profiles!user_fkey'. "#
                + #"Find the desired relationship in the 'details' key.","message":"Could not embed because more than one "#
                + #"relationship was found for 'activities' and 'profiles'"}"#)
    }

    @Test(arguments: [
        (SQLState.uniqueViolation, "duplicate key", false, 409), (.foreignKeyViolation, "x", true, 409),
        (.readOnlySQLTransaction, "cannot execute INSERT in a read-only transaction", false, 405),
        (.cardinalityViolation, "DELETE requires a WHERE clause", false, 400), (.cardinalityViolation, "more than one row", false, 500),
        (.invalidParameterValue, "role \"x\" does not exist", true, 401), (.invalidParameterValue, "bad", false, 400),
        (.undefinedFunction, "function xmlagg(x) does not exist", false, 406), (.undefinedFunction, "function f() does not exist", false, 404),
        (.undefinedTable, "x", false, 404), (.insufficientPrivilege, "x", false, 401), (.insufficientPrivilege, "x", true, 403),
        (.raiseException, "x", false, 400), (.adminShutdown, "x", false, 503), (.configurationLimitExceeded, "x", false, 500),
        (.invalidObjectDefinition, "x", false, 500), (SQLState(rawValue: "08006"), "x", false, 503),
        (SQLState(rawValue: "28000"), "x", false, 403), (.serializationFailure, "x", false, 500), (.checkViolation, "x", false, 400),
        (.queryCanceled, "x", false, 500), (SQLState(rawValue: "53100"), "x", false, 503), (SQLState(rawValue: "P0002"), "x", false, 500),
    ])
    func postgresErrorsKeepPostgRESTsStatus(state: SQLState, message: String, isAuthenticated: Bool, status: Int) {
        var failure = PostgresError(code: .server, message: message, sqlState: state)
        failure.detail = "detail"
        let error = RESTError(failure, isAuthenticated: isAuthenticated)
        #expect(error.status == status)
        #expect(error.code == state.rawValue)
        #expect(error.message == message)
        #expect(error.details == "detail")
        #expect(error.headers == (status == 401 ? ["WWW-Authenticate": "Bearer"] : [:]))
    }

    @Test func aNULInTextIsTheClientsWithoutNamingTheParameter() {
        let hint = "Text values cannot contain the NUL character (\\u0000); remove it and send the request again."
        let nul = PostgresError(
            code: .server, message: "invalid byte sequence for encoding \"UTF8\": 0x00 in parameter $3", sqlState: .characterNotInRepertoire)
        let refused = RESTError(nul, isAuthenticated: true)
        #expect(refused.status == 400)
        #expect(refused.code == "22021")
        #expect(refused.message == "invalid byte sequence for encoding \"UTF8\": 0x00")
        #expect(refused.hint == hint)
        var escape = PostgresError(code: .server, message: "unsupported Unicode escape sequence", sqlState: SQLState(rawValue: "22P05"))
        escape.detail = "\\u0000 cannot be converted to text."
        let json = RESTError(escape, isAuthenticated: false)
        #expect(json.status == 400)
        #expect(json.message == "unsupported Unicode escape sequence")
        #expect(json.details == "\\u0000 cannot be converted to text.")
        #expect(json.hint == hint)
    }

    @Test func clientFailuresAreNotServerErrors() {
        #expect(RESTError(PostgresError(code: .poolTimeout, message: "m"), isAuthenticated: false) == .poolTimeout)
        #expect(RESTError(PostgresError(code: .connectionLost, message: "m"), isAuthenticated: false) == .databaseUnreachable)
        #expect(RESTError(PostgresError(code: .invalidConfiguration, message: "m"), isAuthenticated: false) == .internalFailure(.databaseClient))
    }
}
