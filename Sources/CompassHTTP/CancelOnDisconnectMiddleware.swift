import Hummingbird
import Postgres

/// Cancels a request's statements when its client disconnects: a statement whose client hung
/// up is cancelled on the server at once instead of running to its timeout and holding a pooled
/// connection meanwhile.
///
/// ```swift
/// router.add(middleware: CancelOnDisconnectMiddleware())
/// ```
public struct CancelOnDisconnectMiddleware: RouterMiddleware {
    public typealias Context = CompassRequestContext

    public init() {}

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let connection = ClientConnection.current else { return try await next(request, context) }
        return try await PostgresCancellation.$callerHasLeft.withValue({ connection.hasLeft }) {
            try await next(request, context)
        }
    }
}
