import CompassHTTP
import Hummingbird

/// Echoes `X-Supabase-Api-Version` on successful replies to clients that sent a version at
/// least ``AuthError/apiVersion`` (every official client), as GoTrue does; error replies
/// carry it through ``AuthError/response(versioned:)``.
struct AuthAPIVersionMiddleware: RouterMiddleware {
    typealias Context = CompassRequestContext

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var response = try await next(request, context)
        if request.wantsVersionedAuthReplies { response.headers[AuthError.apiVersionHeader] = AuthError.apiVersion }
        return response
    }
}

extension Request {
    /// Whether the client asked for GoTrue's 2024-01-01 reply shapes.
    var wantsVersionedAuthReplies: Bool {
        (headers[AuthError.apiVersionHeader] ?? "") >= AuthError.apiVersion
    }
}
