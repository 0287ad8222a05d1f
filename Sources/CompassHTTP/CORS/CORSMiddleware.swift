import Foundation
import HTTPTypes
import Hummingbird

/// Cross-origin requests from browsers, answered as Supabase's gateway and PostgREST do, for
/// every API: a preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) gets
/// 200 with the methods, the headers it asked for and a day's max age, before any API key is
/// asked for (browsers send none on a preflight); any other request from an `Origin` gets
/// `Access-Control-Allow-Origin` and the headers a page may read, errors included.
///
/// ```swift
/// router.add(middleware: CORSMiddleware(policy: .anyOrigin))
/// ```
public struct CORSMiddleware: RouterMiddleware {
    public typealias Context = CompassRequestContext

    let policy: CORSPolicy

    public init(policy: CORSPolicy) {
        self.policy = policy
    }

    static let allowedMethods = "GET, POST, PATCH, PUT, DELETE, OPTIONS, HEAD"
    /// Headers a browser lets every request send; listed after the asked-for ones, as PostgREST lists them.
    static let simpleHeaders = "Accept, Accept-Language, Content-Language"
    /// What a page may read of a reply: PostgREST's list for `/rest/v1`, GoTrue's for `/auth/v1`.
    static let exposedRESTHeaders =
        "Content-Encoding, Content-Location, Content-Range, Content-Type, Date, Location, Server, Transfer-Encoding, Range-Unit"
    static let exposedAuthHeaders = "X-Total-Count, Link, X-Supabase-Api-Version"
    static let maxAge = "86400"

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let origin = request.headers[.origin] else {
            // PostgREST's OPTIONS replies name every origin even to a client that sent none.
            guard request.method == .options, policy.origins == nil else { return try await next(request, context) }
            var response = try await next(request, context)
            response.headers[.accessControlAllowOrigin] = "*"
            return response
        }
        guard let allowed = policy.allowedOrigin(for: origin) else { return try await next(request, context) }
        if request.method == .options, let method = request.headers[.accessControlRequestMethod], !method.isEmpty {
            return preflight(allowing: allowed, requestedHeaders: request.headers[.accessControlRequestHeaders])
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.accessControlAllowOrigin] = allowed
        if policy.allowsCredentials {
            response.headers[.accessControlAllowCredentials] = "true"
            // Caches keep one reply per origin: added to what the reply already varies by.
            response.headers[.vary] = response.headers[.vary].map { $0 + ", Origin" } ?? "Origin"
        }
        response.headers[.accessControlExposeHeaders] =
            request.uri.path.hasPrefix("/auth/v1") ? Self.exposedAuthHeaders : Self.exposedRESTHeaders
        return response
    }

    /// The reply to a preflight: nothing in the body, everything in the headers.
    func preflight(allowing origin: String, requestedHeaders: String?) -> Response {
        let requested = (requestedHeaders ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var headers: HTTPFields = [
            .accessControlAllowOrigin: origin,
            .accessControlAllowMethods: Self.allowedMethods,
            .accessControlAllowHeaders: (["Authorization"] + requested + [Self.simpleHeaders]).joined(separator: ", "),
            .accessControlMaxAge: Self.maxAge,
            .contentLength: "0",
        ]
        if policy.allowsCredentials {
            headers[.accessControlAllowCredentials] = "true"
            headers[.vary] = "Origin"
        }
        return Response(status: .ok, headers: headers)
    }
}
