import Foundation
import Postgres

/// The mailed one-time tokens of `auth.one_time_tokens` (migration 0016).
extension AuthStore {
    /// A stored token that matched: whose it is, its type and when it was mailed.
    struct MatchedToken: Sendable {
        var userID: UUID
        var kind: OneTimeToken.Kind
        var createdAt: Date
    }

    /// When the user's live token of `kind` was issued, if there is one.
    func tokenIssuedAt(userID: UUID, kind: OneTimeToken.Kind, on tx: PostgresConnection) async throws -> Date? {
        try await tx.query("""
            SELECT created_at FROM auth.one_time_tokens WHERE user_id = \(userID) AND token_type = \(kind.rawValue)
            """).first?.decode(Date.self, at: 0)
    }

    /// Stores `hash` as the user's token of `kind` (replacing an earlier one) and records when
    /// that mail was sent on the user.
    func saveToken(
        userID: UUID, kind: OneTimeToken.Kind, hash: String, sentTo address: String, now: Date, on tx: PostgresConnection
    ) async throws {
        try await tx.query("""
            INSERT INTO auth.one_time_tokens AS t (user_id, token_type, token_hash, relates_to, created_at, updated_at)
            VALUES (\(userID), \(kind.rawValue), \(hash), \(address), \(now), \(now))
            ON CONFLICT (user_id, token_type) DO UPDATE
                SET token_hash = excluded.token_hash, relates_to = excluded.relates_to,
                    created_at = excluded.created_at, updated_at = excluded.updated_at
            """)
        let column = switch kind {
        case .recovery: "recovery_sent_at"
        case .confirmation: "confirmation_sent_at"
        case .emailChangeNew, .emailChangeCurrent: "email_change_sent_at"
        case .reauthentication: "reauthentication_sent_at"
        }
        try await tx.query("UPDATE auth.users SET \(unescaped: column) = \(now) WHERE id = \(userID)")
    }

    /// Deletes and returns the token with `hash` if it is of one of `kinds`: a token works once.
    func consumeToken(hash: String, kinds: [OneTimeToken.Kind], on tx: PostgresConnection) async throws -> MatchedToken? {
        let rows = try await tx.query("""
            DELETE FROM auth.one_time_tokens WHERE token_hash = \(hash) AND token_type = ANY(\(kinds.map(\.rawValue))::text[])
            RETURNING user_id, token_type, created_at
            """)
        guard let row = rows.first else { return nil }
        let (user, type, created) = try row.decode((UUID, String, Date).self)
        guard let kind = OneTimeToken.Kind(rawValue: type) else { return nil }
        return MatchedToken(userID: user, kind: kind, createdAt: created)
    }

    /// The account with `email`, if any.
    func user(email: String, on tx: PostgresConnection) async throws -> AuthUser? {
        try AuthStore.decodeUser(try await tx.query("SELECT \(unescaped: AuthStore.userJSON) FROM auth.users AS u WHERE u.email = \(email)"))
    }
}

extension AuthStore {
    /// Drops the user's mailed tokens but those of `keeping`: one was redeemed, the others are void
    /// (GoTrue clears them).
    func deleteTokens(userID: UUID, keeping: [OneTimeToken.Kind] = [], on tx: PostgresConnection) async throws {
        try await tx.query("""
            DELETE FROM auth.one_time_tokens WHERE user_id = \(userID) AND NOT token_type = ANY(\(keeping.map(\.rawValue))::text[])
            """)
    }
}
