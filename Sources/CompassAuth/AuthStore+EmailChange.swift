import Foundation
import Postgres

/// The pending address of `PUT /user {email}` (migration 0018).
extension AuthStore {
    /// Records `email` as the user's pending address, no confirmation received yet.
    func beginEmailChange(userID: UUID, to email: String, on tx: PostgresConnection) async throws {
        try await tx.query("""
            UPDATE auth.users SET email_change = \(email), email_change_confirm_status = 0, updated_at = now() WHERE id = \(userID)
            """)
    }

    /// Makes the pending (or given) address the account's, confirmed, once no email-change token is
    /// outstanding; an anonymous account becomes a permanent one with the email provider. Nil when
    /// a confirmation is still awaited (counted); throws ``AuthError/emailExists`` for a taken address.
    func completeEmailChange(userID: UUID, to email: String? = nil, on tx: PostgresConnection) async throws -> AuthUser? {
        let changed: Bool
        do {
            changed = try await tx.withSavepoint { tx in
                try await tx.query("""
                    UPDATE auth.users SET email = coalesce(\(email), email_change), email_change = NULL, email_change_sent_at = NULL,
                           email_change_confirm_status = 0, email_confirmed_at = now(), is_anonymous = false,
                           raw_app_meta_data = CASE WHEN raw_app_meta_data ? 'provider' THEN raw_app_meta_data
                                                    ELSE raw_app_meta_data || '{"provider": "email", "providers": ["email"]}' END,
                           updated_at = now()
                     WHERE id = \(userID) AND coalesce(\(email), email_change) IS NOT NULL
                       AND NOT EXISTS (SELECT FROM auth.one_time_tokens
                                        WHERE user_id = \(userID)
                                          AND token_type IN ('email_change_token_new', 'email_change_token_current'))
                    """).affectedRows == 1
            }
        } catch SQLState.uniqueViolation {
            throw AuthError.emailExists
        }
        guard changed else {
            try await tx.query("""
                UPDATE auth.users SET email_change_confirm_status = least(email_change_confirm_status + 1, 2) WHERE id = \(userID)
                """)
            return nil
        }
        return try await user(id: userID, on: tx)
    }
}
