import Hummingbird
import Logging
import Postgres

/// Turns every error a route group's handlers throw into that API's error reply, written once:
/// errors that already are replies (`HTTPResponseError`: the gateway's, the API's own refusals)
/// pass through, anything else goes through the API's `translate` (which logs what the
/// client must not see and answers in the API's shape, usually a bare 500).
///
/// ```swift
/// router.group("/api")
///     .add(middleware: ErrorReplyMiddleware { error, request, logger in AppAPIError.translating(error, logger: logger) })
///     .add(middleware: APIKeyMiddleware(verifier: verifier))
/// ```
public struct ErrorReplyMiddleware: RouterMiddleware {
    public typealias Context = CompassRequestContext
    /// The API's reply for an error that is not one yet.
    public typealias Translate = @Sendable (any Error, Request, Logger) -> any HTTPResponseError

    let translate: Translate

    public init(_ translate: @escaping Translate) {
        self.translate = translate
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var reply: Response
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            reply = try error.response(from: request, context: context)
        } catch {
            reply = try translate(error, request, context.logger).response(from: request, context: context)
        }
        // Every 503 (a saturated pool, a schema cache not loaded yet) says when to come back.
        if reply.status == .serviceUnavailable, reply.headers[.retryAfter] == nil { reply.headers[.retryAfter] = "1" }
        return reply
    }
}

extension Error {
    /// Whether this is the pool's "no connection became free in time" (answered 503 with `Retry-After`).
    public var isPoolExhausted: Bool {
        (self as? PostgresError)?.code == .poolTimeout
    }

    /// Whether the database could not be reached or dropped the connection under the request (a
    /// restart, a terminated backend): the server's trouble for a moment, answered 503 with
    /// `Retry-After` as REST answers it (PGRST000), not a 500.
    public var isDatabaseUnavailable: Bool {
        guard let error = self as? PostgresError else { return false }
        switch error.code {
        case .connectionFailed, .connectionLost, .closed, .poolClosed:
            return true
        case .server:
            // 08: connection exception; 57P01-57P03: shut down, crashed, not accepting connections yet.
            guard let state = error.sqlState?.rawValue else { return false }
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }
}
