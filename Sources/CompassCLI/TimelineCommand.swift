import ArgumentParser
import CompassData
import CompassDomain
import Foundation

/// `compass timeline --user U`: the Recruiting Timeline (seed 002): items, swimlanes and months.
struct TimelineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show an athlete's recruiting timeline: items, swimlanes and month headers."
    )

    @OptionGroup var options: DatabaseOptions
    @OptionGroup var clock: ClockOptions

    @Option(help: "The user's id; the timeline runs under their RLS scope.")
    var user: UUID

    @Option(help: "View range in months: 3, 6, 12 or all.")
    var range: TimelineViewRange = .default

    @Option(help: "Only this school's items (a school id).")
    var school: UUID?

    @Option(help: "Item types to hide, comma-separated: event,interaction,offer,status_change.")
    var hide: TimelineTypeList?

    func run() async throws {
        let today = clock.date
        let request = TimelineRequest(range: range, school: school, hiddenTypes: hide?.types ?? [])
        let response = try await options.withUserScope(user) { scope, _ in
            try await TimelineRepository(scope: scope).response(for: request, today: today)
        }
        if options.json { return try Output.json(response) }
        let layout = response.layout
        Output.line("\(range.label): \(CLIDate.day(layout.interval.start)) to \(CLIDate.day(layout.interval.end))")
        Output.line("Months: " + layout.months.map(\.label).joined(separator: " "))
        Output.line()
        Output.table(
            ["lane", "items", "stack depth"],
            layout.swimlanes.map { [$0.schoolName, String($0.entries.count), String($0.stackDepth)] })
        Output.line()
        Output.table(
            ["date", "type", "", "label", "school"],
            layout.items.map { item in
                [CLIDate.day(item.date), item.type.displayName, item.emoji, item.label, item.schoolName ?? "No School"]
            })
    }
}
