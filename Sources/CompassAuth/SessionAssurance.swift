import Foundation
import Postgres

/// How strongly a session was authenticated: its level (`aal1`, or `aal2` after a second
/// factor) and the methods used, most recent first (the access token's `aal` and `amr`).
struct SessionAssurance: Sendable, Equatable {
    var level: String
    var methods: [SessionClaims.Method]

    /// A session just signed in by `method` alone.
    static func firstFactor(_ method: String, at time: Date) -> SessionAssurance {
        SessionAssurance(level: "aal1", methods: [SessionClaims.Method(method: method, timestamp: Int(time.timeIntervalSince1970))])
    }

    /// The columns ``decode(_:from:)`` reads, over `auth.sessions AS s`: the level, the first
    /// method and its time, then the session's MFA claims (migration 0040) as JSON.
    static let columns = """
        s.aal, s.authentication_method, extract(epoch FROM s.created_at)::bigint::int,
        coalesce((SELECT jsonb_agg(jsonb_build_object('method', c.authentication_method,
                                                      'timestamp', extract(epoch FROM c.created_at)::bigint)
                                   ORDER BY c.created_at DESC)
                    FROM auth.mfa_amr_claims AS c WHERE c.session_id = s.id), '[]'::jsonb)::text
        """

    /// Reads ``columns`` starting at `index` of `row`.
    static func decode(_ row: PostgresRow, from index: Int) throws -> SessionAssurance {
        let level = try row.decode(String.self, at: index)
        let method = try row.decode(String.self, at: index + 1)
        let signedIn = try row.decode(Int.self, at: index + 2)
        let claims = try JSONDecoder().decode([SessionClaims.Method].self, from: Data(try row.decode(String.self, at: index + 3).utf8))
        return SessionAssurance(level: level, methods: claims + [SessionClaims.Method(method: method, timestamp: signedIn)])
    }
}
