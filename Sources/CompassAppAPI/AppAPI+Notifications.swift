import CompassData
import CompassDomain
import CompassHTTP
import Foundation
import Hummingbird

// The social Activity System (seed 001), as `compass notifications …` serves it: the list
// with the unread count, the badge, and the changes, each answered with the new unread count.
extension AppAPI {
    /// `GET /api/v1/notifications`: the grouped list and the unread count, one round trip.
    func notifications(_ call: AppCall) async throws -> Response {
        _ = try AppQuery(call.request, allowed: [])
        return AppReply.json(NotificationsResponse(inbox: try await withNotifications(of: call.user) { try await $0.load() }))
    }

    /// `GET /api/v1/notifications/unread`: `{"unreadCount": N}`.
    func unreadCount(_ call: AppCall) async throws -> Response {
        _ = try AppQuery(call.request, allowed: [])
        let count = try await withNotifications(of: call.user) { try await $0.unreadCount() }
        return AppReply.json(UnreadCountResponse(unreadCount: count))
    }

    /// `POST /api/v1/notifications/read` with `{"ids": […]}`: a grouped row's id marks its whole group.
    func markRead(_ call: AppCall) async throws -> Response {
        _ = try AppQuery(call.request, allowed: [])
        let ids = try await readIds(call.request)
        return AppReply.json(try await withNotifications(of: call.user) { try await $0.markRead(rowIds: ids) })
    }

    /// `POST /api/v1/notifications/read-all`.
    func markAllRead(_ call: AppCall) async throws -> Response {
        _ = try AppQuery(call.request, allowed: [])
        return AppReply.json(try await withNotifications(of: call.user) { try await $0.markAllRead() })
    }

    /// `DELETE /api/v1/notifications/{id}`: 404 when the user has no such notification.
    func deleteNotification(_ call: AppCall) async throws -> Response {
        _ = try AppQuery(call.request, allowed: [])
        let id = try UUID(pathValue: call.parameter("id"), name: "notification id")
        return AppReply.json(try await withNotifications(of: call.user) { try await $0.delete(id) })
    }

    /// `DELETE /api/v1/notifications`: clears them all.
    func clearNotifications(_ call: AppCall) async throws -> Response {
        _ = try AppQuery(call.request, allowed: [])
        return AppReply.json(try await withNotifications(of: call.user) { try await $0.clear() })
    }

    private func withNotifications<T>(of user: UUID?, _ body: (NotificationsRepository) async throws -> T) async throws -> T {
        try await withScope(of: user) { try await body(NotificationsRepository(scope: $0)) }
    }

    /// `{"ids": ["…", …]}`: notification ids or grouped rows' ids, at least one.
    private func readIds(_ request: Request) async throws -> [UUID] {
        let body = try await jsonObject(request)
        guard case .array(let values)? = body["ids"], !values.isEmpty else {
            throw AppAPIError.invalidBody(#"expected {"ids": ["<notification id>", …]} with at least one id"#)
        }
        return try values.map { value in
            guard case .string(let text) = value else { throw AppAPIError.invalidBody("ids must be strings (notification ids)") }
            guard let id = UUID(uuidString: text) else {
                throw AppAPIError.invalidBody("invalid notification id '\(text)': expected a UUID")
            }
            return id
        }
    }

    /// The body as a JSON object (an empty body is an empty object).
    func jsonObject(_ request: Request) async throws -> [String: JSONValue] {
        let buffer = try await request.collectBody(upTo: configuration.maximumBodyBytes, budget: bodyBudget)
        guard buffer.readableBytes > 0 else { return [:] }
        if let problem = JSONNesting.problem(in: buffer.readableBytesView) {
            throw AppAPIError.invalidBody("the body is not JSON to read: \(problem)")
        }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(buffer.readableBytesView)),
            case .object(let object) = value
        else { throw AppAPIError.invalidBody("the body is not a JSON object") }
        return object
    }
}
