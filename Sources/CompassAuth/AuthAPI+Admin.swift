import CompassDomain
import CompassHTTP
import CompassTokens
import Foundation
import HTTPTypes
import Hummingbird
import Postgres

/// `/admin/users`: account management for the `service_role` key only.
extension AuthAPI {
    struct AdminUserBody: AuthRequestBody {
        /// At creation only: the account's id instead of a random one.
        var id: String?
        var email: String?
        var password: String?
        /// At creation only: a bcrypt hash from another service, instead of a password.
        var password_hash: String?
        var email_confirm: Bool?
        var user_metadata: JSONValue?
        var app_metadata: JSONValue?
        /// `"24h"`, `"none"`… (``BanDuration``).
        var ban_duration: String?
        /// What GoTrue also takes and this server cannot honour: refused by name (``refuseUnsupported()``),
        /// never dropped in silence.
        var role: String?
        var aud: String?
        var phone: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["email": email.map(JSONValue.string), "password": password.map(JSONValue.string),
             "user_metadata": user_metadata, "app_metadata": app_metadata, "ban_duration": ban_duration.map(JSONValue.string),
             "password_hash": password_hash.map(JSONValue.string), "role": role.map(JSONValue.string),
             "aud": aud.map(JSONValue.string), "phone": phone.map(JSONValue.string)]
        }

        /// A role or audience other than `authenticated` (the access tokens' only user role
        /// here: REST and realtime know anon, authenticated and service_role), or a phone number
        /// (phone sign-in is not served).
        func refuseUnsupported() throws(AuthError) {
            if let role, !role.isEmpty, role != "authenticated" {
                throw .validation("role must be 'authenticated': this server's API roles are anon, authenticated and service_role")
            }
            if let aud, !aud.isEmpty, aud != "authenticated" { throw .validation("aud must be 'authenticated'") }
            if let phone, !phone.isEmpty {
                throw AuthError(.badRequest, "phone_provider_disabled", "Phone numbers are not supported: phone sign-in is not served")
            }
        }

        /// The ban to set, if the body names one: nil when none was asked, `.some(nil)` to lift one.
        func ban() throws(AuthError) -> Double?? {
            guard let ban_duration, !ban_duration.isEmpty else { return nil }
            return .some(try BanDuration.seconds(ban_duration))
        }
    }

    func addAdminRoutes(to group: RouterGroup<CompassRequestContext>) {
        let api = self
        group.post("admin/users") { request, _ in try await api.createUser(request) }
        group.post("admin/generate_link") { request, _ in try await api.generateLink(request) }
        group.post("invite") { request, _ in try await api.invite(request) }
        group.get("admin/users") { request, _ in try await api.listUsers(request) }
        group.get("admin/users/:id") { request, context in try await api.getUser(request, id: context.parameters.get("id")) }
        group.put("admin/users/:id") { request, context in try await api.updateUser(request, id: context.parameters.get("id")) }
        group.delete("admin/users/:id") { request, context in
            try await api.deleteUser(request, id: context.parameters.get("id"))
        }
    }

    /// GoTrue's default admin roles: a valid bearer token with one of them may use `/admin`.
    static let adminRoles: Set<String> = ["service_role", "supabase_admin"]

    /// Refuses anything but a bearer whose role is an admin role, as GoTrue does: no bearer is 401
    /// `no_authorization`, a token that does not verify 403 `bad_jwt`, any other role (a user's
    /// token, the anon key) 403 `not_admin`.
    ///
    /// `supabase_admin` is no API role (REST and realtime refuse it), so the verifier refuses it
    /// as an unknown role, and does so only after every other check passed.
    func requireAdmin(_ request: Request) async throws(AuthError) {
        guard let token = request.bearerToken else { throw .noAdminAuthorization }
        let role: String
        do {
            role = try await verifier.verify(token).role.rawValue
        } catch .unknownRole(let name) {
            role = name
        } catch {
            throw .badJWT(error)
        }
        guard AuthAPI.adminRoles.contains(role) else { throw .notAdmin }
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

    /// GoTrue's `sort` for the user list: `created_at` (newest first) or `created_at asc|desc`; the
    /// first one given orders (the rest sort equal rows by the same column); anything else is 400
    /// `validation_failed`.
    static func newestFirst(sorting values: [String]) throws(AuthError) -> Bool {
        var directions: [Bool] = []
        for value in values {
            let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == "created_at" else {
                throw AuthError.validation("Bad Sort Parameters: bad field for sort '\(parts[0].prefix(100))'")
            }
            switch parts.count > 1 ? parts[1].uppercased() : "DESC" {
            case "ASC": directions.append(false)
            case "DESC": directions.append(true)
            default:
                throw AuthError.validation("Bad Sort Parameters: bad direction for sort '\(parts[1].prefix(100))', only 'asc' and 'desc' allowed")
            }
        }
        return directions.first ?? true
    }

    /// `POST /admin/users`.
    func createUser(_ request: Request) async throws -> Response {
        try await requireAdmin(request)
        let body = try await decodeBody(request, as: AdminUserBody.self)
        try body.refuseUnsupported()
        let email = try AuthAPI.email(body.email)
        if let password = body.password { try checkStrength(password) }
        try AuthAPI.checkMetadata(body.user_metadata, body.app_metadata)
        let id = try body.id.flatMap { (text) throws(AuthError) -> UUID? in try AuthAPI.chosenUserID(text) }
        let ban = try body.ban()
        let hash = try body.password_hash.flatMap { (text) throws(AuthError) -> String? in
            guard !text.isEmpty else { return nil }
            guard body.password == nil else { throw .validation("Only a password or a password hash should be provided") }
            return try ImportedPasswordHash.storable(text)
        }
        let user = try await store.transaction { tx -> AuthUser? in
            guard let created = try await store.insertUser(
                id: id, email: email, password: body.password, passwordHash: hash, userMetadata: body.user_metadata ?? .object([:]),
                appMetadata: body.app_metadata, confirmed: body.email_confirm ?? false, on: tx)
            else { return nil }
            guard let ban, let createdID = UUID(uuidString: created.id) else { return created }
            try await store.ban(id: createdID, forSeconds: ban, on: tx)
            return try await store.user(id: createdID, on: tx)
        }
        guard let user else { throw AuthError.emailExists }
        return try JSONReply.encoded(user)
    }

    /// An `id` chosen at creation: GoTrue's wording for one that is not a UUID, or is the nil UUID.
    static func chosenUserID(_ text: String) throws(AuthError) -> UUID? {
        guard !text.isEmpty else { return nil }
        guard let id = UUID(uuidString: text) else { throw .validation("ID must conform to the uuid v4 format") }
        guard id != UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) else { throw .validation("ID cannot be a nil uuid") }
        return id
    }

    /// `GET /admin/users?page=&per_page=&filter=&sort=`: newest first (`sort=created_at asc` for
    /// oldest), those whose email or `full_name` holds `filter`, with GoTrue's `X-Total-Count` and `Link`.
    func listUsers(_ request: Request) async throws -> Response {
        try await requireAdmin(request)
        let query = request.uri.queryParameters
        let pagination = try AdminPagination(page: query.get("page"), perPage: query.get("per_page"))
        let newestFirst = try Self.newestFirst(sorting: request.formQueryValues("sort"))
        let filter = request.formQueryValue("filter").flatMap { $0.isEmpty ? nil : $0 }
        let (users, total) = try await store.transaction { tx in
            try await store.listUsers(limit: pagination.perPage, offset: pagination.offset, newestFirst: newestFirst, filter: filter, on: tx)
        }
        struct Page: Encodable {
            var users: [AuthUser]
            var aud = "authenticated"
        }
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Total-Count")!] = String(total)
        headers[HTTPField.Name("Link")!] = pagination.linkHeader(
            path: request.uri.path, query: query.map { (String($0.key), String($0.value)) }, total: total)
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
        try body.refuseUnsupported()
        let email = try body.email.map { (text) throws(AuthError) in try AuthAPI.email(text) }
        if let password = body.password { try checkStrength(password) }
        try AuthAPI.checkMetadata(body.user_metadata, body.app_metadata)
        let ban = try body.ban()
        // A new password ends every session of the account, as GoTrue's admin update does.
        let user: AuthUser?
        do {
            user = try await store.transaction { tx -> AuthUser? in
                // The ban (which ends sessions) before the write (which may take the email's
                // stronger lock): see ``AuthStore/updateUser``.
                if let ban { try await store.ban(id: id, forSeconds: ban, on: tx) }
                return try await store.updateUser(
                    id: id, email: email, password: body.password, userMetadata: body.user_metadata,
                    appMetadata: body.app_metadata, confirmEmail: body.email_confirm, on: tx)
            }
        } catch SQLState.uniqueViolation {
            // The only unique column it writes: another account has the address.
            throw AuthError.emailExists
        }
        guard let user else { throw AuthError.userNotFound }
        return try JSONReply.encoded(user)
    }

    /// `DELETE /admin/users/{id}`.
    ///
    /// `{"should_soft_delete": true}` (supabase-py's and supabase-swift's `delete_user(id, should_soft_delete)`)
    /// keeps the row and what references it (``AuthStore/softDeleteUser(id:on:)``); without it, or
    /// with no body at all, the account and everything that cascades from it are deleted.
    func deleteUser(_ request: Request, id: String?) async throws -> Response {
        try await requireAdmin(request)
        let id = try AuthAPI.userID(id)
        let soft = try await decodeOptionalBody(request, as: DeleteUserBody.self)?.should_soft_delete ?? false
        let deleted = try await store.transaction { tx in
            soft ? try await store.softDeleteUser(id: id, on: tx) : try await store.deleteUser(id: id, on: tx)
        }
        guard deleted else { throw AuthError.userNotFound }
        return JSONReply.text("{}")
    }

    /// `{"should_soft_delete": …}`, its key matched in any case as GoTrue's Go decoder matches it
    /// (`{"Should_Soft_Delete": true}` soft-deletes there too: reading it as absent would hard
    /// delete, cascading through the app's rows), as every auth body's fields are
    /// (`AuthAPI.bodyDecoder`); given twice, in any cases, it is refused before decoding.
    struct DeleteUserBody: AuthRequestBody {
        var should_soft_delete: Bool?
        var textFields: KeyValuePairs<String, JSONValue?> { [:] }
    }
}
