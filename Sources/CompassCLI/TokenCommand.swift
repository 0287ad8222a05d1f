import ArgumentParser
import CompassRealtime
import CompassTokens
import Foundation

/// `compass token`: mints an HS256 JWT with the worker's secret (see ``JWTSecretSource``), for the worker and clients.
///
/// ```sh
/// compass token --user a1000000-0000-4000-8000-000000000003 --ttl 600
/// ```
/// Prints only the token (`--json`: `{"token": …}`). `--role anon` and `--role service_role` need
/// no user. No database is involved, so there is no `--database-url`.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Mint a JWT (HS256, COMPASS_JWT_SECRET or make run's .data/compass.env) for the worker.")

    @Option(help: "The user id (the token's sub); required for role authenticated.")
    var user: String?

    @Option(parsing: .unconditional, help: "Lifetime in seconds.")
    var ttl: Int = 3600

    @Option(help: "anon, authenticated or service_role.")
    var role: String = APIRole.authenticated.rawValue

    @Flag(help: "Print {\"token\": …} instead of the bare token.")
    var json = false

    func validate() throws {
        guard let parsedRole = APIRole(rawValue: role) else {
            throw ValidationError("invalid --role '\(role)': use anon, authenticated or service_role")
        }
        if let user, UUID(uuidString: user) == nil {
            throw ValidationError("invalid --user '\(user)': not a UUID")
        }
        if parsedRole == .authenticated && user == nil {
            throw ValidationError("--user is required for role authenticated")
        }
        guard (1...315_360_000).contains(ttl) else {
            throw ValidationError("invalid --ttl '\(ttl)': must be a positive number of seconds, at most ten years (315360000)")
        }
    }

    func run() async throws {
        let secret = try JWTSecretSource.resolve()
        let issuer: AccessTokenIssuer
        do {
            issuer = try await AccessTokenIssuer(secret: secret)
        } catch {
            throw CLIFailure.badInput(error.description)
        }
        let subject = user.flatMap(UUID.init(uuidString:))?.uuidString.lowercased()
        let token = try await issuer.token(
            role: APIRole(rawValue: role) ?? .authenticated, subject: subject, lifetime: TimeInterval(ttl))
        if json {
            try Output.json(["token": token])
        } else {
            print(token)
        }
    }
}
