import Foundation
import Postgres

/// `auth.oauth_clients`: the OAuth 2.1 server's registered apps (migration 0043).
///
/// Deleted clients keep their row (`deleted_at`, as GoTrue soft-deletes them) and are invisible
/// to every statement here.
extension AuthStore {
    /// A client's reply JSON from `auth.oauth_clients AS c` (never its secret's hash).
    private static let clientJSON = """
        jsonb_build_object(
            'client_id', c.id, 'client_type', c.client_type, 'token_endpoint_auth_method', c.token_endpoint_auth_method,
            'registration_type', c.registration_type, 'redirect_uris', to_jsonb(c.redirect_uris),
            'grant_types', to_jsonb(c.grant_types), 'response_types', '["code"]'::jsonb,
            'client_name', nullif(c.client_name, ''), 'client_uri', nullif(c.client_uri, ''),
            'logo_uri', nullif(c.logo_uri, ''),
            'created_at', \(iso("c.created_at")), 'updated_at', \(iso("c.updated_at"))
        )::text
        """

    /// What a new client is registered with (already checked).
    struct NewOAuthClient {
        var registrationType: String
        var clientType: String
        var authMethod: String
        var secretHash: String?
        var redirectURIs: [String]
        var grantTypes: [String]
        var name: String?
        var uri: String?
        var logoURI: String?
    }

    func insertOAuthClient(_ client: NewOAuthClient, on tx: PostgresConnection) async throws -> OAuthClient {
        let rows = try await tx.query("""
            INSERT INTO auth.oauth_clients AS c
                   (client_secret_hash, registration_type, client_type, token_endpoint_auth_method, redirect_uris,
                    grant_types, client_name, client_uri, logo_uri)
            VALUES (\(client.secretHash), \(client.registrationType), \(client.clientType), \(client.authMethod),
                    \(client.redirectURIs)::text[], \(client.grantTypes)::text[], \(client.name), \(client.uri), \(client.logoURI))
            RETURNING \(unescaped: Self.clientJSON)
            """)
        guard let client = try Self.decodeOAuthClients(rows).first else { throw AuthError.internalError }
        return client
    }

    func oauthClient(id: UUID, on tx: PostgresConnection) async throws -> OAuthClient? {
        let rows = try await tx.query("""
            SELECT \(unescaped: Self.clientJSON) FROM auth.oauth_clients AS c WHERE c.id = \(id) AND c.deleted_at IS NULL
            """)
        return try Self.decodeOAuthClients(rows).first
    }

    /// Newest first, as GoTrue lists them, with how many there are in all.
    func listOAuthClients(limit: Int, offset: Int, on tx: PostgresConnection) async throws -> (clients: [OAuthClient], total: Int) {
        let rows = try await tx.query("""
            SELECT \(unescaped: Self.clientJSON) FROM auth.oauth_clients AS c WHERE c.deleted_at IS NULL
             ORDER BY c.created_at DESC, c.id DESC LIMIT \(limit) OFFSET \(offset)
            """)
        let total = try await tx.query("SELECT count(*)::int FROM auth.oauth_clients WHERE deleted_at IS NULL")
            .first?.decode(Int.self, at: 0) ?? 0
        return (try Self.decodeOAuthClients(rows), total)
    }

    /// Sets the fields given (nil leaves a field as it is); nil when there is no such client.
    func updateOAuthClient(
        id: UUID, redirectURIs: [String]?, grantTypes: [String]?, name: String?, uri: String?, logoURI: String?,
        authMethod: String?, on tx: PostgresConnection
    ) async throws -> OAuthClient? {
        let rows = try await tx.query("""
            UPDATE auth.oauth_clients AS c SET
                   redirect_uris = coalesce(\(redirectURIs)::text[], c.redirect_uris),
                   grant_types = coalesce(\(grantTypes)::text[], c.grant_types),
                   client_name = coalesce(\(name), c.client_name),
                   client_uri = coalesce(\(uri), c.client_uri),
                   logo_uri = coalesce(\(logoURI), c.logo_uri),
                   token_endpoint_auth_method = coalesce(\(authMethod), c.token_endpoint_auth_method),
                   updated_at = now()
             WHERE c.id = \(id) AND c.deleted_at IS NULL
            RETURNING \(unescaped: Self.clientJSON)
            """)
        return try Self.decodeOAuthClients(rows).first
    }

    /// A confidential client's new secret hash; nil when there is no such confidential client.
    func replaceOAuthClientSecret(id: UUID, hash: String, on tx: PostgresConnection) async throws -> OAuthClient? {
        let rows = try await tx.query("""
            UPDATE auth.oauth_clients AS c SET client_secret_hash = \(hash), updated_at = now()
             WHERE c.id = \(id) AND c.deleted_at IS NULL AND c.client_type = 'confidential'
            RETURNING \(unescaped: Self.clientJSON)
            """)
        return try Self.decodeOAuthClients(rows).first
    }

    /// Whether there was such a client to delete.
    func deleteOAuthClient(id: UUID, on tx: PostgresConnection) async throws -> Bool {
        let rows = try await tx.query("""
            UPDATE auth.oauth_clients SET deleted_at = now(), updated_at = now()
             WHERE id = \(id) AND deleted_at IS NULL RETURNING id
            """)
        return !rows.isEmpty
    }

    private static func decodeOAuthClients(_ rows: PostgresResult) throws -> [OAuthClient] {
        let decoder = JSONDecoder()
        return try rows.map { try decoder.decode(OAuthClient.self, from: Data(try $0.decode(String.self, at: 0).utf8)) }
    }
}
