import Foundation
import Postgres

/// MFA factors and challenges (migration 0040): enrolling, challenging, verifying, unenrolling.
extension AuthStore {
    /// A factor of the signed-in user, locked for the request.
    struct FactorRow: Sendable {
        var id: UUID
        var type: String
        var verified: Bool
        /// The base32 TOTP secret.
        var secret: String?
        /// The last time step a code was accepted for: no code of it or earlier works again.
        var lastVerifiedStep: Int64?
    }

    /// A challenge of a factor, locked for its verification.
    struct ChallengeRow: Sendable {
        var id: UUID
        var createdAt: Date
        var verified: Bool
        var address: String
        var failedAttempts: Int
    }

    /// The user's factors: how many, how many verified, and whether one is named `friendlyName`.
    func factorCounts(userID: UUID, friendlyName: String, on tx: PostgresConnection) async throws
        -> (total: Int, verified: Int, nameTaken: Bool)
    {
        // Serialises concurrent enrolments of one user, so the limits hold.
        try await tx.query("SELECT 1 FROM auth.users WHERE id = \(userID) FOR UPDATE")
        return try await tx.query("""
            SELECT count(*)::int, (count(*) FILTER (WHERE status = 'verified'))::int,
                   coalesce(bool_or(coalesce(friendly_name, '') = \(friendlyName)), false)
              FROM auth.mfa_factors WHERE user_id = \(userID)
            """)[0].decode((Int, Int, Bool).self)
    }

    /// Stores a new unverified TOTP factor; returns its id.
    func insertTOTPFactor(userID: UUID, friendlyName: String, secret: String, now: Date, on tx: PostgresConnection) async throws -> UUID {
        try await tx.query("""
            INSERT INTO auth.mfa_factors (user_id, friendly_name, factor_type, status, secret, created_at, updated_at)
            VALUES (\(userID), \(friendlyName), 'totp', 'unverified', \(secret), \(now), \(now)) RETURNING id
            """)[0].decode(UUID.self, at: 0)
    }

    /// The user's factor `id`, locked; nil when the user has no such factor.
    func lockFactor(id: UUID, userID: UUID, on tx: PostgresConnection) async throws -> FactorRow? {
        guard let row = try await tx.query("""
            SELECT id, factor_type, status = 'verified', secret, last_verified_step
              FROM auth.mfa_factors WHERE id = \(id) AND user_id = \(userID) FOR UPDATE
            """).first else { return nil }
        let (factor, type, verified, secret, step) = try row.decode((UUID, String, Bool, String?, Int64?).self)
        return FactorRow(id: factor, type: type, verified: verified, secret: secret, lastVerifiedStep: step)
    }

    /// A new challenge of `factorID` from `address`; returns its id.
    func insertChallenge(factorID: UUID, address: String, now: Date, on tx: PostgresConnection) async throws -> UUID {
        try await tx.query("UPDATE auth.mfa_factors SET last_challenged_at = \(now) WHERE id = \(factorID)")
        return try await tx.query("""
            INSERT INTO auth.mfa_challenges (factor_id, created_at, ip_address) VALUES (\(factorID), \(now), \(address)) RETURNING id
            """)[0].decode(UUID.self, at: 0)
    }

    /// The challenge `id` of `factorID`, locked; nil when there is none.
    func lockChallenge(id: UUID, factorID: UUID, on tx: PostgresConnection) async throws -> ChallengeRow? {
        guard let row = try await tx.query("""
            SELECT id, created_at, verified_at IS NOT NULL, ip_address, failed_attempts
              FROM auth.mfa_challenges WHERE id = \(id) AND factor_id = \(factorID) FOR UPDATE
            """).first else { return nil }
        let (challenge, created, verified, address, failures) = try row.decode((UUID, Date, Bool, String, Int).self)
        return ChallengeRow(id: challenge, createdAt: created, verified: verified, address: address, failedAttempts: failures)
    }

    /// Deletes a challenge (expired).
    func deleteChallenge(_ id: UUID, on tx: PostgresConnection) async throws {
        try await tx.query("DELETE FROM auth.mfa_challenges WHERE id = \(id)")
    }

    /// Counts a wrong code against the challenge.
    func recordFailedAttempt(challenge: UUID, on tx: PostgresConnection) async throws {
        try await tx.query("UPDATE auth.mfa_challenges SET failed_attempts = failed_attempts + 1 WHERE id = \(challenge)")
    }

    /// Wrong codes entered for `factorID` since `since`, over all its challenges.
    func failedAttempts(factorID: UUID, since: Date, on tx: PostgresConnection) async throws -> Int {
        try await tx.query("""
            SELECT coalesce(sum(failed_attempts), 0)::int FROM auth.mfa_challenges WHERE factor_id = \(factorID) AND created_at >= \(since)
            """)[0].decode(Int.self, at: 0)
    }

    /// A code was right: the challenge is spent, the factor verified (its step used), the session
    /// raised to aal2 with a `totp` claim; as GoTrue, the user's other aal1 sessions end and their
    /// other unverified TOTP factors go.
    func completeVerification(
        challenge: UUID, factor: UUID, step: Int64, session: UUID, userID: UUID, now: Date, on tx: PostgresConnection
    ) async throws {
        try await tx.query("UPDATE auth.mfa_challenges SET verified_at = \(now) WHERE id = \(challenge)")
        try await tx.query("""
            UPDATE auth.mfa_factors SET status = 'verified', last_verified_step = \(step), updated_at = \(now) WHERE id = \(factor)
            """)
        try await tx.query("UPDATE auth.sessions SET aal = 'aal2', factor_id = \(factor), updated_at = \(now) WHERE id = \(session)")
        try await tx.query("""
            INSERT INTO auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method)
            VALUES (\(session), \(now), \(now), 'totp')
            ON CONFLICT (session_id, authentication_method) DO UPDATE SET created_at = excluded.created_at, updated_at = excluded.updated_at
            """)
        try await tx.query("DELETE FROM auth.sessions WHERE user_id = \(userID) AND aal = 'aal1' AND id <> \(session)")
        try await tx.query("""
            DELETE FROM auth.mfa_factors WHERE user_id = \(userID) AND factor_type = 'totp' AND status = 'unverified' AND id <> \(factor)
            """)
    }

    /// Deletes the factor; sessions it raised drop back to aal1 (their `totp` claim goes).
    func deleteFactor(_ factor: UUID, on tx: PostgresConnection) async throws {
        try await tx.query("""
            DELETE FROM auth.mfa_amr_claims AS c USING auth.sessions AS s
             WHERE c.session_id = s.id AND s.factor_id = \(factor) AND c.authentication_method = 'totp'
            """)
        try await tx.query("UPDATE auth.sessions SET aal = 'aal1', factor_id = NULL WHERE factor_id = \(factor)")
        try await tx.query("DELETE FROM auth.mfa_factors WHERE id = \(factor)")
    }

    /// The session's level (`aal1`, `aal2`); nil when the session ended.
    func sessionLevel(session: UUID, userID: UUID, on tx: PostgresConnection) async throws -> String? {
        try await tx.query("SELECT aal FROM auth.sessions WHERE id = \(session) AND user_id = \(userID)").first?.decode(String.self, at: 0)
    }
}

extension AuthStore {
    /// Drops the user's unverified factors enrolled before `before` (abandoned enrolments).
    func deleteUnverifiedFactors(userID: UUID, before: Date, on tx: PostgresConnection) async throws {
        try await tx.query("""
            DELETE FROM auth.mfa_factors WHERE user_id = \(userID) AND status = 'unverified' AND created_at < \(before)
            """)
    }
}
