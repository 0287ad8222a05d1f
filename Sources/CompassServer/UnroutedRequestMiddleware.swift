import CompassHTTP
import CompassREST
import Hummingbird

/// Replies for requests no route takes: a method the server never serves (`TRACE`, `CONNECT`,
/// WebDAV's…, `OPTIONS` but under `/rest/v1`) is 405 with `Allow`; under `/api`, a path served for other methods is 405 with
/// those in `Allow`, and an unknown path that API's JSON 404 (`{"code":"not_found",…}`). An
/// unknown path under `/rest/v1` is PostgREST's 404 PGRST125; under `/auth/v1`, GoTrue's plain
/// `404 page not found`; anywhere else a JSON 404 naming the request.
///
/// ```swift
/// router.add(middleware: UnroutedRequestMiddleware(apiRoutes: appAPI.routes.map { ($0.method, $0.path) }))
/// ```
struct UnroutedRequestMiddleware: RouterMiddleware {
    typealias Context = CompassRequestContext

    /// `/api`'s routes: method and path template (`:name` segments match any one segment).
    let apiRoutes: [(method: HTTPRequest.Method, path: String)]

    /// Every method some route of the server answers.
    static let servedMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .patch, .delete]
    static let allow = "GET, HEAD, POST, PUT, PATCH, DELETE"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let isAppAPI = path == "/api" || path.hasPrefix("/api/")
        // Routed requests pay for none of this: the lookups below run only once routing failed.
        // OPTIONS is PostgREST's: `/rest/v1` answers it with the methods a resource allows.
        let isServed = Self.servedMethods.contains(request.method) || request.method == .options && path.hasPrefix("/rest/v1")
        guard isServed else {
            return Self.methodNotAllowed(request.method, allow: (isAppAPI ? apiMethods(for: path) : nil) ?? Self.allow)
        }
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound && context.endpointPath == "NotFound" {
            return notFound(request.method, path: path, isAppAPI: isAppAPI)
        }
    }

    /// The reply for a path no route takes, in the words of the API it falls under.
    func notFound(_ method: HTTPRequest.Method, path: String, isAppAPI: Bool) -> Response {
        if isAppAPI {
            if let allow = apiMethods(for: path) { return Self.methodNotAllowed(method, allow: allow) }
            return JSONReply.object(
                status: .notFound,
                ["code": "not_found", "message": "no endpoint \(method.rawValue) \(path.prefix(200)); the endpoints are listed at GET /api/openapi.json"])
        }
        if path == "/rest/v1" || path.hasPrefix("/rest/v1/") { return RESTAPI.invalidPathReply }
        if path == "/auth/v1" || path.hasPrefix("/auth/v1/") {
            return Response(
                status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "404 page not found\n")))
        }
        return JSONReply.object(status: .notFound, ["code": "not_found", "message": "no route for \(method.rawValue) \(path.prefix(200))"])
    }

    /// The methods `/api` serves at `path` (`GET, DELETE`), nil when none.
    func apiMethods(for path: String) -> String? {
        let methods = apiRoutes.filter { Self.path(path, matches: $0.path) }.map(\.method.rawValue)
        return methods.isEmpty ? nil : methods.joined(separator: ", ")
    }

    /// 405 naming the methods that are served (in `Allow` and the message).
    static func methodNotAllowed(_ method: HTTPRequest.Method, allow: String) -> Response {
        JSONReply.object(
            status: .methodNotAllowed,
            ["code": "method_not_allowed", "message": "\(method.rawValue) is not served here; use \(allow)"],
            headers: [.allow: allow])
    }

    /// Whether `path` fits `template` segment for segment (`:name` takes any non-empty segment).
    static func path(_ path: String, matches template: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let expected = template.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == expected.count else { return false }
        return zip(segments, expected).allSatisfy { segment, pattern in
            pattern.hasPrefix(":") ? !segment.isEmpty : segment == pattern
        }
    }
}
