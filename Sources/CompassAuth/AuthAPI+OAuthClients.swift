import CompassDomain
import CompassHTTP
import Foundation
import HTTPTypes
import Hummingbird
import Postgres

/// The OAuth 2.1 server's client registry, as GoTrue serves it with `OAUTH_SERVER_ENABLED`:
/// `/admin/oauth/clients` for the `service_role` key, and `POST /oauth/clients/register`
/// (dynamic registration) when that is allowed too. Off, each answers GoTrue's 404
/// `feature_disabled`, after the admin check as GoTrue does.
///
/// A confidential client's secret is in the reply that made it, and never again: only its
/// SHA-256 is stored.
extension AuthAPI {
    struct OAuthClientRegistrationBody: AuthRequestBody {
        var redirect_uris: [String]?
        var client_type: String?
        var token_endpoint_auth_method: String?
        var grant_types: [String]?
        var client_name: String?
        var client_uri: String?
        var logo_uri: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["redirect_uris": redirect_uris.map { .array($0.map(JSONValue.string)) },
             "client_type": client_type.map(JSONValue.string),
             "token_endpoint_auth_method": token_endpoint_auth_method.map(JSONValue.string),
             "grant_types": grant_types.map { .array($0.map(JSONValue.string)) },
             "client_name": client_name.map(JSONValue.string), "client_uri": client_uri.map(JSONValue.string),
             "logo_uri": logo_uri.map(JSONValue.string)]
        }
    }

    /// `PUT`'s fields: the ones given are set, the rest kept.
    struct OAuthClientUpdateBody: AuthRequestBody {
        var redirect_uris: [String]?
        var grant_types: [String]?
        var client_name: String?
        var client_uri: String?
        var logo_uri: String?
        var token_endpoint_auth_method: String?
        var textFields: KeyValuePairs<String, JSONValue?> {
            ["redirect_uris": redirect_uris.map { .array($0.map(JSONValue.string)) },
             "grant_types": grant_types.map { .array($0.map(JSONValue.string)) },
             "client_name": client_name.map(JSONValue.string), "client_uri": client_uri.map(JSONValue.string),
             "logo_uri": logo_uri.map(JSONValue.string),
             "token_endpoint_auth_method": token_endpoint_auth_method.map(JSONValue.string)]
        }
        var isEmpty: Bool {
            redirect_uris == nil && grant_types == nil && client_name == nil && client_uri == nil && logo_uri == nil
                && token_endpoint_auth_method == nil
        }
    }

    func addOAuthClientRoutes(to group: RouterGroup<CompassRequestContext>) {
        let api = self
        group.post("admin/oauth/clients") { request, _ in
            try await api.requireClientAdmin(request)
            return try await api.registerClient(request, registrationType: "manual")
        }
        group.get("admin/oauth/clients") { request, _ in try await api.listClients(request) }
        group.get("admin/oauth/clients/:client_id") { request, context in
            try await api.getClient(request, id: context.parameters.get("client_id"))
        }
        group.put("admin/oauth/clients/:client_id") { request, context in
            try await api.updateClient(request, id: context.parameters.get("client_id"))
        }
        group.delete("admin/oauth/clients/:client_id") { request, context in
            try await api.deleteClient(request, id: context.parameters.get("client_id"))
        }
        group.post("admin/oauth/clients/:client_id/regenerate_secret") { request, context in
            try await api.regenerateClientSecret(request, id: context.parameters.get("client_id"))
        }
        group.post("oauth/clients/register") { request, context in
            guard api.configuration.oauthServer else { throw AuthError.oauthServerDisabled }
            guard api.configuration.oauthDynamicRegistration else { throw AuthError.dynamicRegistrationDisabled }
            _ = try await api.limiter.admitClientRegistration(address: context.clientAddress, now: api.sessions.now())
            return try await api.registerClient(request, registrationType: "dynamic")
        }
    }

    /// The admin check, then whether the OAuth server is on (GoTrue's order).
    private func requireClientAdmin(_ request: Request) async throws(AuthError) {
        try await requireAdmin(request)
        guard configuration.oauthServer else { throw .oauthServerDisabled }
    }

    /// `POST /admin/oauth/clients` and `POST /oauth/clients/register`: 201 with the client (and
    /// its secret, when confidential).
    private func registerClient(_ request: Request, registrationType: String) async throws -> Response {
        let body = try await decodeBody(request, as: OAuthClientRegistrationBody.self)
        try OAuthClientRules.checkRedirectURIs(body.redirect_uris ?? [])
        // An empty list is no list, as GoTrue reads it: the default grant types.
        let grantTypes = body.grant_types.flatMap { $0.isEmpty ? nil : $0 } ?? OAuthClientRules.grantTypes
        try OAuthClientRules.checkGrantTypes(grantTypes)
        try OAuthClientRules.checkName(body.client_name)
        try OAuthClientRules.checkURI(body.client_uri, field: "client_uri")
        try OAuthClientRules.checkURI(body.logo_uri, field: "logo_uri")
        let givenType = body.client_type.flatMap { $0.isEmpty ? nil : $0 }
        let givenMethod = body.token_endpoint_auth_method.flatMap { $0.isEmpty ? nil : $0 }
        if let givenType, !["public", "confidential"].contains(givenType) {
            throw AuthError.validation("client_type must be 'public' or 'confidential'")
        }
        try OAuthClientRules.checkAuthMethod(givenMethod)
        if let givenType, let givenMethod, givenType != OAuthClientRules.clientType(forAuthMethod: givenMethod) {
            throw AuthError.validation(
                "client_type '\(givenType)' is inconsistent with token_endpoint_auth_method '\(givenMethod)' "
                    + "(expected client_type '\(OAuthClientRules.clientType(forAuthMethod: givenMethod))')")
        }
        let clientType = givenType ?? givenMethod.map(OAuthClientRules.clientType(forAuthMethod:)) ?? "confidential"
        let method = givenMethod ?? (clientType == "public" ? "none" : "client_secret_basic")
        let secret = clientType == "confidential" ? OAuthClientSecret.generate() : nil
        let new = AuthStore.NewOAuthClient(
            registrationType: registrationType, clientType: clientType, authMethod: method,
            secretHash: secret.map(OAuthClientSecret.hash), redirectURIs: body.redirect_uris ?? [], grantTypes: grantTypes,
            name: body.client_name, uri: body.client_uri, logoURI: body.logo_uri)
        var client = try await Self.refusingCheckViolations {
            try await store.transaction { tx in try await store.insertOAuthClient(new, on: tx) }
        }
        client.clientSecret = secret
        return try JSONReply.encoded(status: .created, client)
    }

    /// `GET /admin/oauth/clients`: newest first. GoTrue answers every client at once; here
    /// `page` and `per_page` page them as `/admin/users` does, with `X-Total-Count` and `Link`
    /// (which supabase-py reads), and without them a page holds up to 1,000.
    private func listClients(_ request: Request) async throws -> Response {
        try await requireClientAdmin(request)
        let query = request.uri.queryParameters
        let pagination = try AdminPagination(
            page: query.get("page"), perPage: query.get("per_page"), defaultPerPage: AdminPagination.maximumPerPage)
        let (clients, total) = try await store.transaction { tx in
            try await store.listOAuthClients(limit: pagination.perPage, offset: pagination.offset, on: tx)
        }
        struct Page: Encodable { var clients: [OAuthClient] }
        var headers = HTTPFields()
        headers[HTTPField.Name("X-Total-Count")!] = String(total)
        headers[HTTPField.Name("Link")!] = pagination.linkHeader(
            path: request.uri.path, query: query.map { (String($0.key), String($0.value)) }, total: total)
        return try JSONReply.encoded(Page(clients: clients), headers: headers)
    }

    private func getClient(_ request: Request, id: String?) async throws -> Response {
        try await requireClientAdmin(request)
        let id = try AuthAPI.clientID(id)
        guard let client = try await store.transaction({ tx in try await store.oauthClient(id: id, on: tx) }) else {
            throw AuthError.oauthClientNotFound
        }
        return try JSONReply.encoded(client)
    }

    private func updateClient(_ request: Request, id: String?) async throws -> Response {
        try await requireClientAdmin(request)
        let id = try AuthAPI.clientID(id)
        guard try await store.transaction({ tx in try await store.oauthClient(id: id, on: tx) }) != nil else {
            throw AuthError.oauthClientNotFound
        }
        let body = try await decodeBody(request, as: OAuthClientUpdateBody.self)
        guard !body.isEmpty else { throw AuthError.validation("No fields provided for update") }
        if let uris = body.redirect_uris {
            guard !uris.isEmpty else { throw AuthError.validation("redirect_uris cannot be empty") }
            try OAuthClientRules.checkRedirectURIs(uris)
        }
        if let types = body.grant_types { try OAuthClientRules.checkGrantTypes(types) }
        try OAuthClientRules.checkName(body.client_name)
        try OAuthClientRules.checkURI(body.client_uri, field: "client_uri")
        try OAuthClientRules.checkURI(body.logo_uri, field: "logo_uri")
        try OAuthClientRules.checkAuthMethod(body.token_endpoint_auth_method)
        let updated = try await Self.refusingCheckViolations { try await store.transaction { tx in
            guard let current = try await store.oauthClient(id: id, on: tx) else { throw AuthError.oauthClientNotFound }
            if let method = body.token_endpoint_auth_method,
                !OAuthClientRules.authMethods(forClientType: current.clientType).contains(method)
            {
                let valid = OAuthClientRules.authMethods(forClientType: current.clientType).joined(separator: " ")
                throw AuthError.validation(
                    "token_endpoint_auth_method '\(method)' is not valid for client_type '\(current.clientType)'; valid methods: [\(valid)]")
            }
            return try await store.updateOAuthClient(
                id: id, redirectURIs: body.redirect_uris, grantTypes: body.grant_types, name: body.client_name,
                uri: body.client_uri, logoURI: body.logo_uri, authMethod: body.token_endpoint_auth_method, on: tx)
        } }
        guard let updated else { throw AuthError.oauthClientNotFound }
        return try JSONReply.encoded(updated)
    }

    /// 204, as GoTrue answers a deleted client.
    private func deleteClient(_ request: Request, id: String?) async throws -> Response {
        try await requireClientAdmin(request)
        let id = try AuthAPI.clientID(id)
        guard try await store.transaction({ tx in try await store.deleteOAuthClient(id: id, on: tx) }) else {
            throw AuthError.oauthClientNotFound
        }
        return Response(status: .noContent)
    }

    /// A new secret for a confidential client; the old one stops working at once.
    private func regenerateClientSecret(_ request: Request, id: String?) async throws -> Response {
        try await requireClientAdmin(request)
        let id = try AuthAPI.clientID(id)
        let secret = OAuthClientSecret.generate()
        var client = try await store.transaction { tx in
            guard let current = try await store.oauthClient(id: id, on: tx) else { throw AuthError.oauthClientNotFound }
            guard current.clientType == "confidential" else {
                throw AuthError.validation("Cannot regenerate secret for public client")
            }
            guard let client = try await store.replaceOAuthClientSecret(id: id, hash: OAuthClientSecret.hash(secret), on: tx) else {
                throw AuthError.oauthClientNotFound
            }
            return client
        }
        client.clientSecret = secret
        return try JSONReply.encoded(client)
    }

    /// The table's own checks are the last word on a client's fields: one that the checks above
    /// let through is a 400, not a 500.
    private static func refusingCheckViolations<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch SQLState.checkViolation {
            throw AuthError.validation("OAuth client fields are out of bounds")
        }
    }

    /// The path's client id, or GoTrue's 400 for a malformed one.
    static func clientID(_ text: String?) throws(AuthError) -> UUID {
        guard let text, let id = UUID(uuidString: text) else { throw .validation("invalid client_id format") }
        return id
    }
}
