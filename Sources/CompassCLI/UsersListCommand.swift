import ArgumentParser
import CompassAuth
import CompassData
import Foundation

/// `compass users list`: every account, oldest first.
struct UsersListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts in auth.users.")

    @OptionGroup var database: DatabaseOptions

    func run() async throws {
        let users = try await database.withAuthStore { store in
            try await store.transaction { tx in try await store.listUsers(limit: Int(Int32.max), newestFirst: false, on: tx).users }
        }
        if database.json {
            try Output.json(["users": users])
        } else {
            // The role column is the app's (`profiles.role`), which the accounts' metadata may not hold.
            let ids = users.compactMap { UUID(uuidString: $0.id) }
            let roles = try await database.withConnection { try await UsersRepository(scope: .serviceRole(on: $0)).appRoles(ids) }
            Output.table(AuthUser.tableHeader, users.map { $0.tableRow(appRole: UUID(uuidString: $0.id).flatMap { roles[$0] }) })
        }
    }
}
