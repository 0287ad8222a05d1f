import CompassDomain
import Foundation
import Postgres

/// Anonymous accounts: no email, no password, no identity, `is_anonymous` until an address is linked.
extension AuthStore {
    /// Creates an anonymous account with `userMetadata`.
    func insertAnonymousUser(userMetadata: JSONValue, on tx: PostgresConnection) async throws -> AuthUser? {
        let id = try await tx.query("""
            INSERT INTO auth.users (is_anonymous, raw_user_meta_data, raw_app_meta_data)
            VALUES (true, \(userMetadata.jsonText)::jsonb, '{}'::jsonb)
            RETURNING id
            """)[0].decode(UUID.self, at: 0)
        return try await user(id: id, on: tx)
    }
}
