import CompassHTTP
import Foundation
import HTTPTypes
import Hummingbird

/// One `/api` endpoint: method, path (Hummingbird's `:name` parameters) and handler.
///
/// The table in ``AppAPI/routes`` is what the router serves and what the OpenAPI test
/// compares with `/api/openapi.json`, so no endpoint goes undocumented.
public struct AppRoute: Sendable {
    /// The HTTP method.
    public var method: HTTPRequest.Method
    /// The path, e.g. `/api/interactions/:id/cascade-delete`.
    public var path: String
    /// Whether the endpoint needs a signed-in user (all but the OpenAPI document).
    public var needsUser: Bool
    let handler: @Sendable (AppCall) async throws -> Response

    /// The path as OpenAPI writes it: `/api/interactions/{id}/cascade-delete`.
    public var openAPIPath: String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
            .joined(separator: "/")
    }
}

/// What a handler gets: the request, its route parameters and the signed-in user.
struct AppCall: Sendable {
    var request: Request
    var context: CompassRequestContext
    var user: UUID?

    /// A path parameter by name.
    func parameter(_ name: String) -> String? {
        context.parameters.get(name)
    }
}

extension AppAPI {
    /// Every `/api` endpoint.
    public var routes: [AppRoute] {
        func route(_ method: HTTPRequest.Method, _ path: String, needsUser: Bool = true,
                   _ handler: @escaping @Sendable (AppCall) async throws -> Response) -> AppRoute {
            AppRoute(method: method, path: path, needsUser: needsUser, handler: handler)
        }
        return [
            route(.get, "/api/openapi.json", needsUser: false) { _ in OpenAPIDocument.response },
            route(.post, "/api/interactions/:id/cascade-delete") { try await cascadeDelete($0) },
            route(.get, "/api/v1/feed") { try await feed($0) },
            route(.get, "/api/v1/timeline") { try await timeline($0) },
            route(.get, "/api/v1/interactions") { try await interactions($0) },
            route(.get, "/api/v1/family-activity") { try await familyActivity($0) },
            route(.get, "/api/v1/notifications") { try await notifications($0) },
            route(.get, "/api/v1/notifications/unread") { try await unreadCount($0) },
            route(.post, "/api/v1/notifications/read") { try await markRead($0) },
            route(.post, "/api/v1/notifications/read-all") { try await markAllRead($0) },
            route(.delete, "/api/v1/notifications/:id") { try await deleteNotification($0) },
            route(.delete, "/api/v1/notifications") { try await clearNotifications($0) },
        ]
    }
}
