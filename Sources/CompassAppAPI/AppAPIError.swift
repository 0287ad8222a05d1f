import CompassData
import CompassDomain
import CompassHTTP
import CompassTokens
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Postgres

/// A refusal of `/api`: an HTTP status, a stable machine-readable `code` and a message naming the value.
///
/// Replies are `{"code": "invalid_parameter", "message": "…"}`. Messages name the caller's
/// own input (a parameter, an id) and never a token, a secret or a database detail.
public struct AppAPIError: HTTPResponseError, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public var status: HTTPResponse.Status
    /// A stable code clients can switch on.
    public var code: String
    /// What went wrong, for a person.
    public var message: String

    /// Creates an error.
    public init(status: HTTPResponse.Status, code: String, message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public var description: String { "\(status.code) \(code): \(message)" }

    /// The JSON reply.
    public var response: Response {
        AppReply.json(AppAPIErrorBody(code: code, message: message), status: status)
    }

    /// 400: a query parameter or path value is not what the endpoint takes.
    static func invalidParameter(_ message: String) -> AppAPIError {
        AppAPIError(status: .badRequest, code: "invalid_parameter", message: message)
    }

    /// 400: the body is not the JSON object the endpoint takes.
    static func invalidBody(_ message: String) -> AppAPIError {
        AppAPIError(status: .badRequest, code: "invalid_body", message: message)
    }

    /// 401: no user session (no bearer token, the anon key, or a token without a user).
    static let sessionRequired = AppAPIError(
        status: .unauthorized, code: "session_required",
        message: "this endpoint needs a signed-in user's access token in Authorization: Bearer")

    /// 401: the bearer token is not valid (bad signature, expired, malformed).
    static func invalidToken(_ error: AccessTokenError) -> AppAPIError {
        AppAPIError(status: .unauthorized, code: "invalid_token", message: error.plainReason)
    }

    /// 500: anything unexpected; the details go to the log, not the client.
    static let internalError = AppAPIError(
        status: .internalServerError, code: "internal_error", message: "the server could not complete the request")

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    /// `/api`'s reply for whatever a route threw: data-layer refusals and oversized bodies get
    /// theirs; anything else is logged (PostgresError's description carries no bind values) and a bare 500.
    @Sendable static func translating(_ error: any Error, request: Request, logger: Logger) -> any HTTPResponseError {
        switch error {
        case let error as AppAPIError:
            return error
        case let error as DataAccessError:
            let reply = AppAPIError.from(error)
            if reply.status == .internalServerError { logger.error("data layer failed: \(error)") }
            return reply
        case let error as BodyTooLarge:
            return AppAPIError(status: .contentTooLarge, code: "body_too_large", message: error.description)
        case let error as BodyBudgetExhausted:
            return AppAPIError(status: .serviceUnavailable, code: "server_busy", message: error.description)
        case let error where error.isMalformedHTTP:
            // The body ended early (the client hung up mid-body) or was malformed: the client's doing, not ours.
            return AppAPIError(status: .badRequest, code: "invalid_body", message: "the request body ended early or was malformed")
        case let error as PostgresError where error.sqlState == .characterNotInRepertoire:
            // The Postgres client refuses a NUL byte in a bound value before sending it.
            return AppAPIError.invalidParameter("a value contains a NUL byte (\\u0000), which text cannot hold")
        case let error where error.isPoolExhausted:
            return AppAPIError(
                status: .serviceUnavailable, code: "database_busy", message: "every database connection is busy; retry shortly")
        case let error where error.isDatabaseUnavailable:
            logger.warning("database unavailable: \(String(describing: error))", metadata: ["path": "\(request.uri.path)"])
            return AppAPIError(
                status: .serviceUnavailable, code: "database_unavailable", message: "the database cannot be reached; retry shortly")
        default:
            logger.error("request failed: \(String(describing: error))", metadata: ["path": "\(request.uri.path)"])
            return AppAPIError.internalError
        }
    }

    /// The reply for a data-layer refusal.
    static func from(_ error: DataAccessError) -> AppAPIError {
        switch error {
        case .notFound: return AppAPIError(status: .notFound, code: "not_found", message: error.description)
        case .notAllowed: return AppAPIError(status: .forbidden, code: "not_allowed", message: error.description)
        case .notParentOfFamily:
            return AppAPIError(status: .forbidden, code: "not_parent_of_family", message: error.description)
        case .notAParent: return AppAPIError(status: .forbidden, code: "not_a_parent", message: error.description)
        case .unknownSchool: return .invalidParameter(error.description)
        case .userScopeRequired, .unexpectedValue: return .internalError
        }
    }
}

/// `{"code": …, "message": …}`.
struct AppAPIErrorBody: Encodable {
    var code: String
    var message: String
}

/// `/api`'s JSON replies, encoded by ``CompassJSON`` exactly as the CLI prints them.
enum AppReply {
    /// `value` as `application/json`.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        do {
            return Response(
                status: status, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: try CompassJSON.encodedBytes(value))))
        } catch {
            return JSONReply.text(status: .internalServerError, #"{"code":"internal_error","message":"encoding failed"}"#)
        }
    }
}
