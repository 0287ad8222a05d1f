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
        let now = Date()
        let snapshot = try await options.withUserScope(user) { scope, _ in
            try await FeedRepository(scope: scope).load(now: now)
        }
        let query = ActivityFeedQuery(type: type?.type, dateRange: range, searchText: search, page: page)
        var result = query.page(of: snapshot.events, now: now)
        if widget {
            let events = ActivityFeed.widget(query.filter(snapshot.events, now: now))
            result = ActivityFeedPage(events: events, page: 1, totalPages: 1, total: events.count)
        }
        if options.json {
            return try Output.json(FeedOutput(page: result, warnings: snapshot.warnings))
        }
        snapshot.warnings.forEach { printError("warning: \($0)") }
        Output.table(
            ["when", "", "title", "description"],
            result.events.map { [$0.relativeTime ?? "", $0.icon, $0.title, $0.description] }, maxWidth: 72)
        Output.line("Page \(result.page) of \(result.totalPages) · \(result.total) event\(result.total == 1 ? "" : "s")")
    }
}

/// `{"events": [...], "page": N, "totalPages": N, "total": N}`, plus `warnings` when a source failed.
struct FeedOutput: Encodable {
    var page: ActivityFeedPage
    var warnings: [String]

    private enum CodingKeys: String, CodingKey { case warnings }

    func encode(to encoder: any Encoder) throws {
        try page.encode(to: encoder)
        if !warnings.isEmpty {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(warnings, forKey: .warnings)
        }
    }
}
