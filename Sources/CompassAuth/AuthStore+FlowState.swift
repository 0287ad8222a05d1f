import Foundation
import Postgres

/// PKCE flow states of `auth.flow_state` (migration 0017).
extension AuthStore {
    /// A flow whose code was presented.
    struct FlowState: Sendable {
        var userID: UUID
        var challenge: PKCEChallenge
        var authenticationMethod: String
        var codeIssuedAt: Date?
    }

    /// Starts a flow for `userID` signing in by `method` (`email/signup`, `recovery`, `magiclink`).
    func createFlowState(userID: UUID, challenge: PKCEChallenge, method: String, now: Date, on tx: PostgresConnection) async throws {
        try await tx.query("""
            INSERT INTO auth.flow_state (user_id, code_challenge_method, code_challenge, authentication_method, created_at, updated_at)
            VALUES (\(userID), \(challenge.method.rawValue), \(challenge.challenge), \(method), \(now), \(now))
            """)
    }

    /// Attaches a code (its hash) to the user's latest flow for `method`; false when there is none.
    func issueAuthCode(userID: UUID, method: String, codeHash: String, now: Date, on tx: PostgresConnection) async throws -> Bool {
        let rows = try await tx.query("""
            UPDATE auth.flow_state SET auth_code_hash = \(codeHash), auth_code_issued_at = \(now), updated_at = \(now)
             WHERE id = (SELECT id FROM auth.flow_state WHERE user_id = \(userID) AND authentication_method = \(method)
                          ORDER BY created_at DESC LIMIT 1)
            RETURNING id
            """)
        return !rows.isEmpty
    }

    /// Deletes and returns the flow holding the code with `codeHash`: a code works once.
    func takeFlowState(codeHash: String, on tx: PostgresConnection) async throws -> FlowState? {
        let rows = try await tx.query("""
            DELETE FROM auth.flow_state WHERE auth_code_hash = \(codeHash)
            RETURNING user_id, code_challenge, code_challenge_method, authentication_method, auth_code_issued_at
            """)
        guard let row = rows.first else { return nil }
        let (user, challenge, method, authentication, issued) = try row.decode((UUID, String, String, String, Date?).self)
        guard let parsed = PKCEChallenge.Method(rawValue: method) else { return nil }
        return FlowState(
            userID: user, challenge: PKCEChallenge(challenge: challenge, method: parsed), authenticationMethod: authentication,
            codeIssuedAt: issued)
    }
}
