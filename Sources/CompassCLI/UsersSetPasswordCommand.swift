import ArgumentParser
import CompassAuth
import Foundation

/// `compass users set-password ID --password-stdin`: a new password; the account's sessions end.
struct UsersSetPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-password", abstract: "Set an account's password (read from stdin) and sign it out everywhere.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The account's id (a UUID).")
    var id: UUID

    @Flag(name: .customLong("password-stdin"), help: "Read the password from the first line of standard input (required).")
    var passwordFromStdin = false

    func validate() throws {
        guard passwordFromStdin else { throw ValidationError("--password-stdin is required: passwords are never taken as arguments") }
    }

    func run() async throws {
        let password = try PasswordInput.read()
        let updated = try await database.withAuthStore { store in
            // A new password ends every session of the account (keeping none).
            try await store.transaction { tx in try await store.updateUser(id: id, password: password, on: tx) }
        }
        guard let user = updated else { throw CLIFailure.badInput("no user \(id.cliText) in auth.users") }
        if database.json {
            try Output.json(user)
        } else {
            Output.line("password set for \(user.email ?? user.id); its sessions are signed out")
        }
    }
}
