import Foundation
import Postgres

/// The sign-in attempt counters of `auth.sign_in_attempts` (migration 0014).
extension AuthStore {
    /// Counts one attempt on each of `keys` in one statement and returns each key's count in
    /// its window, so concurrent attempts (in any worker) see distinct counts.
    ///
    /// A key whose window began at or before `now - window` starts a new one at count 1. Runs in
    /// its own transaction, committed before bcrypt, so its row locks are held for one statement.
    func countSignInAttempt(keys: [String], now: Date, window: TimeInterval) async throws -> [String: Int] {
        try await transaction(on: counterPool) { tx in
            // Rows are locked in the order of `keys` (the VALUES order), the same for every attempt.
            let rows = try await tx.query("""
                INSERT INTO auth.sign_in_attempts AS a (key, window_start, count)
                SELECT key, \(now)::timestamptz, 1 FROM unnest(\(keys)::text[]) WITH ORDINALITY AS k (key, position)
                 ORDER BY position
                ON CONFLICT (key) DO UPDATE SET
                    window_start = CASE WHEN a.window_start <= excluded.window_start - \(window)::float8 * interval '1 second'
                                        THEN excluded.window_start ELSE a.window_start END,
                    count = CASE WHEN a.window_start <= excluded.window_start - \(window)::float8 * interval '1 second'
                                 THEN 1 ELSE a.count + 1 END
                RETURNING a.key, a.count
                """)
            let counts = try Dictionary(uniqueKeysWithValues: rows.map { try $0.decode((String, Int).self) })
            // A key starting a window is a good moment to drop windows that have ended, among keys
            // of the same kinds (the part before ':'; mail counters have a longer window). SKIP
            // LOCKED: this never waits on a concurrent attempt's rows, so it takes part in no deadlock.
            if counts.values.contains(1) {
                let kinds = Array(Set(keys.map { String($0.prefix { $0 != ":" }) }))
                try await tx.query("""
                    DELETE FROM auth.sign_in_attempts WHERE key IN (
                        SELECT key FROM auth.sign_in_attempts
                         WHERE window_start <= \(now)::timestamptz - \(window)::float8 * interval '1 second'
                           AND split_part(key, ':', 1) = ANY(\(kinds)::text[])
                         LIMIT 1000 FOR UPDATE SKIP LOCKED)
                    """)
            }
            return counts
        }
    }

    /// Takes back one attempt on each of `keys` (the password matched, so it was no failure).
    func refundSignInAttempt(keys: [String]) async throws {
        try await transaction(on: counterPool) { tx in
            try await tx.query("UPDATE auth.sign_in_attempts SET count = count - 1 WHERE key = ANY(\(keys)::text[]) AND count > 0")
        }
    }
}
