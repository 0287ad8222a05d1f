import CompassHTTP
import Hummingbird

/// Replies for requests no route takes: a method the server never serves (`TRACE`, `CONNECT`,
/// WebDAV's…) is 405 with `Allow`, and an unknown path under `/api` is that API's JSON 404
/// (`{"code":"not_found","message":…}`) rather than an empty one.
///
/// ```swift
/// router.add(middleware: UnroutedRequestMiddleware())
/// ```
struct UnroutedRequestMiddleware: RouterMiddleware {
    typealias Context = CompassRequestContext

    /// Every method some route of the server answers.
    static let servedMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete]
    static let allow = "GET, HEAD, POST, PUT, PATCH, DELETE"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard Self.servedMethods.contains(request.method) else {
            return JSONReply.object(
                status: .methodNotAllowed,
                ["code": "method_not_allowed", "message": "\(request.method.rawValue) is not served; use one of \(Self.allow)"],
                headers: [.allow: Self.allow])
        }
        let path = request.uri.path
        guard path == "/api" || path.hasPrefix("/api/") else { return try await next(request, context) }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && context.endpointPath == "NotFound" {
            return JSONReply.object(
                status: .notFound,
                ["code": "not_found", "message": "no endpoint \(request.method.rawValue) \(path.prefix(200)); the endpoints are listed at GET /api/openapi.json"])
        }
    }
}
