import ArgumentParser
import CompassRealtime
import CompassTokens
import Foundation

/// `compass listen`: tails realtime changes as JSON lines, the way a subscriber would get them.
///
/// ```sh
/// compass listen --user a1000000-0000-4000-8000-000000000001 --table interactions
/// ```
/// With `--user`, only rows that user may read under RLS are shown (DELETEs carry just the
/// key, as the worker sends them); without it, everything, as the service role. Each line
/// is the event's `data` object. Runs until interrupted.
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen", abstract: "Tail realtime events as JSON lines (under a user's RLS with --user).")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Show only what this user may read (their RLS scope).")
    var user: String?

    @Option(help: "A realtime-enabled table, as name or schema.name (default: every enabled table of public).")
    var table: String?

    func validate() throws {
        if let user, UUID(uuidString: user) == nil {
            throw ValidationError("invalid --user '\(user)': not a UUID")
        }
        if let table, table.isEmpty || table.split(separator: ".").count > 2 {
            throw ValidationError("invalid --table '\(table)': use name or schema.name")
        }
    }

    func run() async throws {
        var binding: [String: RealtimeJSON] = ["event": "*", "schema": "public"]
        if let table {
            let parts = table.split(separator: ".").map(String.init)
            binding["schema"] = .string(parts.count == 2 ? parts[0] : "public")
            binding["table"] = .string(parts.last ?? table)
        }
        let scope = user.map { "user \($0.lowercased())" } ?? "service role"
        let tail = RealtimeTail(configuration: try database.configuration(), logger: CLILogger.shared)
        do {
            try await tail.run(claims: claims(), binding: .object(binding)) { tables in
                let names = tables.map(\.description).joined(separator: ", ")
                FileHandle.standardError.write(Data("listening (\(scope)) on \(names); Ctrl-C stops\n".utf8))
            } onEvent: { data in
                FileHandle.standardOutput.write(Data((data.jsonText + "\n").utf8))
            }
        } catch let problem as BindingProblem {
            throw CLIFailure.badInput("cannot listen: \(problem.message)")
        }
    }

    /// The subscriber's claims: the user's, or the service role's.
    private func claims() -> AccessClaims {
        let farFuture = Date().addingTimeInterval(100 * 365 * 24 * 3600)
        guard let user = user?.lowercased() else {
            return AccessClaims(role: .serviceRole, subject: nil, expiresAt: farFuture, claimsJSON: #"{"role":"service_role"}"#)
        }
        return AccessClaims(
            role: .authenticated, subject: user, expiresAt: farFuture,
            claimsJSON: #"{"sub":"\#(user)","role":"authenticated","aud":"authenticated"}"#)
    }
}
