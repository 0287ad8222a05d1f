import ArgumentParser
import CompassData
import CompassDomain
import Foundation

/// `compass feed --user U`: the Activity Feed (seed 000) under the user's RLS scope.
struct FeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Show a user's Activity Feed (interactions, status changes, documents)."
    )

    @OptionGroup var options: DatabaseOptions
    @OptionGroup var clock: ClockOptions

    @Option(help: "The user's id; the feed runs under their RLS scope.")
    var user: UUID

    @Option(help: "Only one event type: interaction, school_status_change or document_upload.")
    var type: FeedTypeArgument?

    @Option(help: "Date range: week, month, quarter or all.")
    var range: DateRange = .all

    @Option(help: "Case-insensitive search in titles and descriptions.")
    var search: String = ""

    @Option(parsing: .unconditional, help: "Page number, from 1 (20 events per page).")
    var page: Int = 1

    @Flag(help: "Only the dashboard widget: the 10 most recent events.")
    var widget = false

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be 1 or more, got \(page)") }
        if widget && page != 1 { throw ValidationError("--widget shows one page; drop --page \(page)") }
    }

    func run() async throws {
        let now = clock.date
        let request = FeedRequest(type: type?.type, range: range, search: search, page: page, widget: widget)
        let response = try await options.withUserScope(user) { scope, _ in
            try await FeedRepository(scope: scope).response(for: request, now: now)
        }
        if options.json { return try Output.json(response) }
        let result = response.page
        response.warnings.forEach { printError("warning: \($0)") }
        Output.table(
            ["when", "", "title", "description"],
            result.events.map { [$0.relativeTime ?? "", $0.icon, $0.title, $0.description] }, maxWidth: 72)
        Output.line("Page \(result.page) of \(result.totalPages) · \(result.total) event\(result.total == 1 ? "" : "s")")
    }
}
