import ArgumentParser
import CompassData
import CompassDomain
import Foundation

/// `compass interactions --user U [--parent --family F]`: the Interactions list with analytics (seed 004).
struct InteractionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "interactions",
        abstract: "List interactions (athlete: what they logged; parent: the whole family) with analytics."
    )

    @OptionGroup var options: DatabaseOptions
    @OptionGroup var clock: ClockOptions

    @Option(help: "The user's id; the list runs under their RLS scope.")
    var user: UUID

    @Flag(help: "The parent view of a whole family (needs --family).")
    var parent = false

    @Option(help: "The family to list as its parent.")
    var family: UUID?

    @Option(help: "Only this type: email, phone_call, text, in_person_visit, virtual_meeting, camp, showcase, tweet, dm.")
    var type: InteractionType?

    @Option(help: "Only outbound or inbound.")
    var direction: InteractionDirection?

    @Option(help: "Only this sentiment: very_positive, positive, neutral, negative.")
    var sentiment: InteractionSentiment?

    @Option(help: "Only the last 7, 14, 30 or 90 days.")
    var days: InteractionTimePeriod?

    @Option(name: .customLong("logged-by"), help: "Parent view: only what this user logged.")
    var loggedBy: UUID?

    @Option(help: "Case-insensitive search in subject and content.")
    var search: String = ""

    func validate() throws {
        if parent && family == nil { throw ValidationError("--parent needs --family <family id>") }
        if !parent && family != nil { throw ValidationError("--family is for the parent view: add --parent") }
        if !parent, let loggedBy {
            throw ValidationError("--logged-by \(loggedBy.cliText) is a parent-view filter: add --parent --family")
        }
    }

    func run() async throws {
        let now = clock.date
        let audience: InteractionsRepository.Audience = family.map { .family($0) } ?? .athlete
        let records = try await options.withUserScope(user) { scope, _ in
            try await InteractionsRepository(scope: scope).load(audience)
        }
        let filters = InteractionFilters(
            searchText: search, type: type, direction: direction, sentiment: sentiment, timePeriod: days, loggedBy: loggedBy)
        let listing = records.listing(filters: filters, now: now)
        if options.json { return try Output.json(listing) }
        let analytics = listing.analytics
        Output.line(
            "\(listing.resultsText) · outbound \(analytics.outboundCount) · inbound \(analytics.inboundCount) · "
                + "this week \(analytics.thisWeekCount)")
        Output.table(
            ["date", "", "type", "dir", "subject", "school", "coach"],
            listing.interactions.map { item in
                let interaction = item.interaction
                return [
                    CLIDate.day(interaction.displayDate), interaction.type.icon, interaction.type.displayName,
                    interaction.direction.rawValue, interaction.displaySubject, item.schoolName ?? "",
                    item.coachName ?? "",
                ]
            }, maxWidth: 40)
    }
}
