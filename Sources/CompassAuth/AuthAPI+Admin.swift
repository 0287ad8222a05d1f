import CompassDomain
import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird

/// `/admin/users`: account management for the `service_role` key only.
extension AuthAPI {
    struct AdminUserBody: AuthRequestBody {
        var email: String?
        var password: String?
        var email_confirm: Bool?
        var user_metadata: JSONValue?
        var app_metadata: JSONValue?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["email": email.map(JSONValue.string), "password": password.map(JSONValue.string),
             "user_metadata": user_metadata, "app_metadata": app_metadata]
        }
    }

    func addAdminRoutes(to group: RouterGroup<CompassRequestContext>) {
        let api = self
        group.post("admin/users") { request, _ in try await api.createUser(request) }
        group.get("admin/users") { request, _ in try await api.listUsers(request) }
        group.get("admin/users/:id") { request, context in try await api.getUser(request, id: context.parameters.get("id")) }
        group.put("admin/users/:id") { request, context in try await api.updateUser(request, id: context.parameters.get("id")) }
        group.delete("admin/users/:id") { request, context in
            try await api.deleteUser(request, id: context.parameters.get("id"))
        }
    }

    /// Refuses anything but a `service_role` bearer (a user's token or the anon key alike).
    func requireAdmin(_ request: Request) async throws(AuthError) {
        guard let token = request.bearerToken, let claims = try? await verifier.verify(token), claims.role == .serviceRole
        else { throw .notAdmin }
    }

    /// The path's user id, or GoTrue's 404 for a malformed one.
    static func userID(_ text: String?) throws(AuthError) -> UUID {
        guard let text, let id = UUID(uuidString: text) else {
            throw AuthError(.notFound, "validation_failed", "user_id must be an UUID")
        }
        return id
    }

    static func checkMetadata(_ values: JSONValue?...) throws(AuthError) {
        for value in values {
            if let value, case .object = value {} else if value != nil {
                throw AuthError.validation("metadata must be a JSON object")
            }
        }
    }

    /// `POST /admin/users`.
    func createUser(_ request: Request) async throws -> Response {
        try await requireAdmin(request)
        let body = try await decodeBody(request, as: AdminUserBody.self)
        let email = try AuthAPI.email(body.email)
        if let password = body.password { try checkStrength(password) }
        try AuthAPI.checkMetadata(body.user_metadata, body.app_metadata)
        let user = try await store.transaction { tx in
            try await store.insertUser(
                email: email, password: body.password, userMetadata: body.user_metadata ?? .object([:]),
                appMetadata: body.app_metadata, confirmed: body.email_confirm ?? false, on: tx)
        }
        guard let user else { throw AuthError.emailExists }
        return try JSONReply.encoded(user)
    }

    /// `GET /admin/users?page=&per_page=`.
    func listUsers(_ request: Request) async throws -> Response {
        try await requireAdmin(request)
        let query = request.uri.queryParameters
        let page = query.get("page").map { Int($0) } ?? 1
        let perPage = query.get("per_page").map { Int($0) } ?? 50
        guard let page, let perPage, page > 0, (1...1000).contains(perPage) else {
            throw AuthError.validation("Bad Pagination Parameters")
        }
        let (users, total) = try await store.transaction { tx in try await store.listUsers(page: page, perPage: perPage, on: tx) }
        struct Page: Encodable {
            var users: [AuthUser]
            var aud = "authenticated"
        }
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Total-Count")!] = String(total)
        return try JSONReply.encoded(Page(users: users), headers: headers)
    }

    /// `GET /admin/users/{id}`.
    func getUser(_ request: Request, id: String?) async throws -> Response {
        try await requireAdmin(request)
        let id = try AuthAPI.userID(id)
        guard let user = try await store.transaction({ tx in try await store.user(id: id, on: tx) }) else { throw AuthError.userNotFound }
        return try JSONReply.encoded(user)
    }

    /// `PUT /admin/users/{id}`.
    func updateUser(_ request: Request, id: String?) async throws -> Response {
        try await requireAdmin(request)
        let id = try AuthAPI.userID(id)
        let body = try await decodeBody(request, as: AdminUserBody.self)
        let email = try body.email.map { (text) throws(AuthError) in try AuthAPI.email(text) }
        if let password = body.password { try checkStrength(password) }
        try AuthAPI.checkMetadata(body.user_metadata, body.app_metadata)
        // A new password ends every session of the account, as GoTrue's admin update does.
        let user = try await store.transaction { tx in
            try await store.updateUser(
                id: id, email: email, password: body.password, userMetadata: body.user_metadata, appMetadata: body.app_metadata,
                confirmEmail: body.email_confirm, on: tx)
        }
        guard let user else { throw AuthError.userNotFound }
        return try JSONReply.encoded(user)
    }

    /// `DELETE /admin/users/{id}`.
    func deleteUser(_ request: Request, id: String?) async throws -> Response {
        try await requireAdmin(request)
        let id = try AuthAPI.userID(id)
        guard try await store.transaction({ tx in try await store.deleteUser(id: id, on: tx) }) else { throw AuthError.userNotFound }
        return JSONReply.text("{}")
    }
}
