import ArgumentParser
import CompassData
import CompassDomain
import Foundation

/// `compass notifications list|unread|read|read-all|delete|clear --user U`: the social Activity System (seed 001).
struct NotificationsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "A user's social notifications: list, unread count, mark read, delete, clear.",
        subcommands: [
            NotificationsListCommand.self, NotificationsUnreadCommand.self, NotificationsReadCommand.self,
            NotificationsReadAllCommand.self, NotificationsDeleteCommand.self, NotificationsClearCommand.self,
        ]
    )
}

/// `--user` plus the database options, shared by the notification commands.
struct NotificationUserOptions: ParsableArguments {
    @OptionGroup var database: DatabaseOptions

    @Option(help: "The recipient's user id; runs under their RLS scope.")
    var user: UUID

    /// Runs `body` with the user's notifications repository.
    func withRepository<T>(_ body: (NotificationsRepository) async throws -> T) async throws -> T {
        try await database.withUserScope(user) { scope, _ in try await body(NotificationsRepository(scope: scope)) }
    }

    /// Prints a change: `{"changed": N, "unreadCount": N}` or one line.
    func report(_ change: NotificationChange, verb: String) throws {
        if database.json { return try Output.json(change) }
        Output.line("\(verb) \(change.changed) notification\(change.changed == 1 ? "" : "s"); \(change.unreadCount) unread")
    }
}

struct NotificationsListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "The last 30 days, likes on one post grouped, newest first.")

    @OptionGroup var options: NotificationUserOptions

    func run() async throws {
        let now = Date()
        let inbox = try await options.withRepository { try await $0.load() }
        if options.database.json { return try Output.json(NotificationsResponse(inbox: inbox)) }
        let groups = inbox.groups
        Output.table(
            ["id", "when", "", "text", "post"],
            groups.map { group in
                [group.id.cliText, group.relativeTime(now: now), group.isRead ? " " : "●", group.text,
                 group.activities.first?.postCaption ?? ""]
            }, maxWidth: 70)
        Output.line("\(inbox.unreadCount) unread")
    }
}

struct NotificationsUnreadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unread", abstract: "The unread count (the tab badge).")

    @OptionGroup var options: NotificationUserOptions

    func run() async throws {
        let count = try await options.withRepository { try await $0.unreadCount() }
        if options.database.json { return try Output.json(UnreadCountResponse(unreadCount: count)) }
        Output.line("\(count) unread")
    }
}

struct NotificationsReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "Mark notifications read; a grouped row's id marks every notification in the group.")

    @OptionGroup var options: NotificationUserOptions

    @Argument(help: "Notification ids, or ids of grouped rows from `list`.")
    var ids: [UUID]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("give at least one notification id") }
    }

    func run() async throws {
        let change = try await options.withRepository { try await $0.markRead(rowIds: ids) }
        try options.report(change, verb: "Marked read")
    }
}

struct NotificationsReadAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "read-all", abstract: "Mark every notification read.")

    @OptionGroup var options: NotificationUserOptions

    func run() async throws {
        try options.report(try await options.withRepository { try await $0.markAllRead() }, verb: "Marked read")
    }
}

struct NotificationsDeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete one notification.")

    @OptionGroup var options: NotificationUserOptions

    @Argument(help: "The notification id.")
    var id: UUID

    func run() async throws {
        try options.report(try await options.withRepository { try await $0.delete(id) }, verb: "Deleted")
    }
}

struct NotificationsClearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Delete every notification of the user.")

    @OptionGroup var options: NotificationUserOptions

    func run() async throws {
        try options.report(try await options.withRepository { try await $0.clear() }, verb: "Deleted")
    }
}
