import ArgumentParser
import CompassAuth

/// `compass users list`: every account, oldest first.
struct UsersListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts in auth.users.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let users = try await database.withAuthStore { store in
            try await store.transaction { tx in try await store.listUsers(page: 1, perPage: Int(Int32.max), on: tx).users }
        }
        if database.json {
            try Output.json(["users": users])
        } else {
            Output.table(AuthUser.tableHeader, users.map(\.tableRow))
        }
    }
}
