import CompassDomain
import ArgumentParser
import CompassAuth
import Foundation

/// `compass users create`: an account with a confirmed email, its password read from stdin.
///
/// With `--role`, the user metadata carries the app role, and the sign-up trigger gives the
/// account a profile (as a client's `signUp(…, data: {role: …})` would).
struct UsersCreateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create", abstract: "Create an account (email confirmed); the password is read from stdin.")

    @OptionGroup var database: DatabaseOptions

    @Option(help: "The account's email address.")
    var email: String

    @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input (required).")
    var passwordFromStdin = false

    @Option(help: "The app role: athlete or parent.")
    var role: String?

    /// `--email` without the spaces a shell argument picks up (the API takes an address as sent).
    private var typedEmail: String { email.trimmingCharacters(in: .whitespaces) }

    func validate() throws {
        guard passwordFromStdin else { throw ValidationError("--password-stdin is required: passwords are never taken as arguments") }
        do {
            _ = try AuthAPI.email(typedEmail)
        } catch {
            throw ValidationError("invalid --email '\(email.prefix(80))': not an email address")
        }
        if let role, !["athlete", "parent"].contains(role) {
            throw ValidationError("invalid --role '\(role.prefix(40))': use athlete or parent")
        }
    }

    func run() async throws {
        let password = try PasswordInput.read()
        let address = try AuthAPI.email(typedEmail)
        let metadata: JSONValue = .object(role.map { ["role": .string($0)] } ?? [:])
        let created = try await database.withAuthStore { store in
            try await store.transaction { tx in
                try await store.insertUser(email: address, password: password, userMetadata: metadata, confirmed: true, on: tx)
            }
        }
        guard let user = created else { throw CLIFailure.badInput("invalid --email '\(address)': an account with this email exists") }
        if database.json {
            try Output.json(user)
        } else {
            Output.table(AuthUser.tableHeader, [user.tableRow(appRole: role)])
        }
    }
}
