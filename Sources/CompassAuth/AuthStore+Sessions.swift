import Foundation
import Postgres

extension AuthStore {
    /// A refresh token's row, locked for rotation.
    struct TokenRow: Sendable {
        var id: Int
        var sessionID: UUID
        var userID: UUID
        var revoked: Bool
        /// When it was last changed: for a revoked token, when it was rotated away.
        var updatedAt: Date
        /// The session's level and how it was authenticated (the `aal` and `amr` claims).
        var assurance: SessionAssurance
    }

    /// Starts a session for `userID` whose first refresh token has `tokenHash`; returns its id.
    func createSession(userID: UUID, tokenHash: String, method: String, now: Date, on tx: PostgresConnection) async throws -> UUID {
        let session = try await tx.query("""
            INSERT INTO auth.sessions (user_id, authentication_method, created_at, updated_at)
            VALUES (\(userID), \(method), \(now), \(now)) RETURNING id
            """)[0].decode(UUID.self, at: 0)
        try await tx.query("""
            INSERT INTO auth.refresh_tokens (token_hash, user_id, session_id, created_at, updated_at)
            VALUES (\(tokenHash), \(userID), \(session), \(now), \(now))
            """)
        return session
    }

    /// The token with `hash`, it and its session locked against a concurrent rotation.
    ///
    /// The token's row is locked too, not only the session's: a refresh that waited for another
    /// then reads the token as that one left it (revoked), and takes the reuse path, where
    /// locking the session alone left it the token as first read and a second rotation failed on
    /// the new token's unique hash (500).
    func lockToken(hash: String, on tx: PostgresConnection) async throws -> TokenRow? {
        let rows = try await tx.query("""
            SELECT t.id::int, t.session_id, t.user_id, t.revoked, t.updated_at, \(unescaped: SessionAssurance.columns)
              FROM auth.refresh_tokens AS t JOIN auth.sessions AS s ON s.id = t.session_id
             WHERE t.token_hash = \(hash)
               FOR UPDATE OF s, t
            """)
        guard let row = rows.first else { return nil }
        let (id, session, user, revoked, updated) = try row.decode((Int, UUID, UUID, Bool, Date).self)
        return TokenRow(
            id: id, sessionID: session, userID: user, revoked: revoked, updatedAt: updated,
            assurance: try SessionAssurance.decode(row, from: 5))
    }

    /// The session's level and methods; nil when it ended.
    func assurance(session: UUID, on tx: PostgresConnection) async throws -> SessionAssurance? {
        guard let row = try await tx.query("""
            SELECT \(unescaped: SessionAssurance.columns) FROM auth.sessions AS s WHERE s.id = \(session)
            """).first else { return nil }
        return try SessionAssurance.decode(row, from: 0)
    }

    /// Revokes the session's live refresh tokens and gives it `newHash` instead.
    func replaceRefreshToken(session: UUID, userID: UUID, newHash: String, now: Date, on tx: PostgresConnection) async throws {
        let parent = try await activeTokenHash(session: session, on: tx)
        try await tx.query("""
            UPDATE auth.refresh_tokens SET revoked = true, updated_at = \(now) WHERE session_id = \(session) AND NOT revoked
            """)
        try await tx.query("""
            INSERT INTO auth.refresh_tokens (token_hash, user_id, session_id, parent, created_at, updated_at)
            VALUES (\(newHash), \(userID), \(session), \(parent), \(now), \(now))
            """)
        try await tx.query("UPDATE auth.sessions SET updated_at = \(now) WHERE id = \(session)")
    }

    /// The hash of the session's one unrevoked token.
    func activeTokenHash(session: UUID, on tx: PostgresConnection) async throws -> String? {
        try await tx.query("""
            SELECT token_hash FROM auth.refresh_tokens WHERE session_id = \(session) AND NOT revoked ORDER BY id DESC LIMIT 1
            """).first?.decode(String.self, at: 0)
    }

    /// Revokes `token` and issues its successor `newHash` in the same session.
    func rotate(_ token: TokenRow, parentHash: String, newHash: String, now: Date, on tx: PostgresConnection) async throws {
        try await tx.query("UPDATE auth.refresh_tokens SET revoked = true, updated_at = \(now) WHERE id = \(token.id)")
        try await tx.query("""
            INSERT INTO auth.refresh_tokens (token_hash, user_id, session_id, parent, created_at, updated_at)
            VALUES (\(newHash), \(token.userID), \(token.sessionID), \(parentHash), \(now), \(now))
            """)
        try await tx.query("UPDATE auth.sessions SET updated_at = \(now) WHERE id = \(token.sessionID)")
    }

    /// The user of a live session, or nil when the session was revoked or the account deleted.
    ///
    /// `locking` holds the account's row until the transaction ends, for a request that changes
    /// it: a soft delete that began first is waited for (and then the account is gone), one that
    /// begins later waits and then clears what the request wrote. `NO KEY UPDATE`, not `UPDATE`:
    /// a refresh inserting a token that references the account (a key-share lock) must not wait
    /// for it, or the refresh and this request's ending of other sessions wait for each other.
    func sessionUser(session: UUID, userID: UUID, locking: Bool = false, on tx: PostgresConnection) async throws -> AuthUser? {
        try AuthStore.decodeUser(try await tx.query("""
            SELECT \(unescaped: AuthStore.userJSON) FROM auth.users AS u JOIN auth.sessions AS s ON s.user_id = u.id
             WHERE s.id = \(session) AND u.id = \(userID) AND u.deleted_at IS NULL
            \(unescaped: locking ? "FOR NO KEY UPDATE OF u" : "")
            """))
    }

    /// Whether sessions may start for an account.
    enum AccountState: Sendable {
        case usable, gone, banned
    }

    /// The account's state, its row held against a concurrent soft delete or ban until the
    /// transaction ends (either would then end a session started now too). `forWriting` when the
    /// transaction goes on to write the row itself (a share lock two of them held would each wait
    /// for the other to upgrade).
    func accountState(userID: UUID, forWriting: Bool = false, on tx: PostgresConnection) async throws -> AccountState {
        let rows = try await tx.query("""
            SELECT deleted_at IS NOT NULL, coalesce(banned_until > now(), false) FROM auth.users WHERE id = \(userID)
            \(unescaped: forWriting ? "FOR NO KEY UPDATE" : "FOR SHARE")
            """)
        guard let row = rows.first else { return .gone }
        let (deleted, banned) = try row.decode((Bool, Bool).self)
        return deleted ? .gone : banned ? .banned : .usable
    }

    /// Ends one session (its refresh tokens go with it).
    func deleteSession(_ session: UUID, on tx: PostgresConnection) async throws {
        try await tx.query("DELETE FROM auth.sessions WHERE id = \(session)")
    }

    /// Ends every session of `userID`, or all but `keeping`.
    public func deleteSessions(userID: UUID, keeping: UUID? = nil, on tx: PostgresConnection) async throws {
        try await tx.query("DELETE FROM auth.sessions WHERE user_id = \(userID) AND id IS DISTINCT FROM \(keeping)::uuid")
    }
}
