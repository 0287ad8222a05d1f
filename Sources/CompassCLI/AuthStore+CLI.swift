import CompassDomain
import CompassAuth
import Foundation
import Postgres

extension DatabaseOptions {
    /// Runs `body` with the auth store over a one-connection pool (transactions as `supabase_auth_admin`).
    func withAuthStore<T>(_ body: (AuthStore) async throws -> T) async throws -> T {
        let pool = PostgresPool(configuration: try configuration(), maximumConnections: 1, logger: CLILogger.shared)
        return try await pool.withRunning { pool in try await body(AuthStore(pool: pool)) }
    }
}

/// A password read from standard input: one line, its line break dropped, never echoed or logged.
enum PasswordInput {
    /// The first line of stdin, checked against the auth server's rules (6 characters to 72 bytes).
    static func read() throws -> String {
        guard let line = readLine(strippingNewline: true), !line.isEmpty else {
            throw CLIFailure.badInput("no password on standard input (--password-stdin reads one line)")
        }
        // Postgres stores no NUL; refused here rather than as a database error (exit 1).
        guard !line.utf8.contains(0) else { throw CLIFailure.badInput("the password on standard input holds a NUL character") }
        do {
            try AuthConfiguration().checkStrength(line)
        } catch {
            let problem = error.code == "weak_password" ? "too short" : "too long"
            throw CLIFailure.badInput("the password on standard input is \(problem): \(error.message)")
        }
        return line
    }
}

extension AuthUser {
    /// The row `compass users` prints; `appRole` is the profile's (`athlete`/`parent`), if any.
    func tableRow(appRole: String?) -> [String] {
        [id, email ?? "", appRole ?? "", emailConfirmedAt == nil ? "no" : "yes", lastSignInAt ?? "never",
         createdAt]
    }

    static let tableHeader = ["id", "email", "role", "confirmed", "last sign-in", "created"]
}
