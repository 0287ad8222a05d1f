import ArgumentParser

/// `compass users`: the accounts in `auth.users`, as Supabase's dashboard manages them.
///
/// ```sh
/// echo 'a long password' | compass users create --email ana@example.com --password-stdin --role athlete
/// compass users list
/// compass users set-password <id> --password-stdin < password.txt
/// compass users delete <id>
/// ```
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Create, list and delete accounts (auth.users), or set a password.",
        subcommands: [UsersCreateCommand.self, UsersListCommand.self, UsersDeleteCommand.self, UsersSetPasswordCommand.self])
}
