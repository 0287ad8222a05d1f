import ArgumentParser
import CompassAuth
import Foundation

/// `compass users delete ID`: removes an account; its sessions, tokens and app rows go with it.
struct UsersDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete an account and everything that hangs off it.")

    @OptionGroup var database: DatabaseOptions

    @Argument(help: "The account's id (a UUID).")
    var id: UUID

    func run() async throws {
        let deleted = try await database.withAuthStore { store in
            try await store.transaction { tx in try await store.deleteUser(id: id, on: tx) }
        }
        guard deleted else { throw CLIFailure.badInput("no user \(id.cliText) in auth.users") }
        if database.json {
            try Output.json(["deleted": id.cliText])
        } else {
            Output.line("deleted \(id.cliText)")
        }
    }
}
