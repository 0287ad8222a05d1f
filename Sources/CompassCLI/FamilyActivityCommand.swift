import ArgumentParser
import CompassData
import CompassDomain
import Foundation

/// `compass family-activity --user U [--limit N] [--cursor C]`: a page of the co-parent activity log (seed 003).
struct FamilyActivityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family-activity",
        abstract: "A page of the family's parent activity log (last 30 days, newest first) with nextCursor."
    )

    @OptionGroup var options: DatabaseOptions

    @Option(help: "A parent's user id; runs under their RLS scope.")
    var user: UUID

    @Option(help: "The family (default: the user's family as a parent).")
    var family: UUID?

    @Option(parsing: .unconditional, help: "Activities per page, 1 to 100.")
    var limit: Int = ParentActivityPage.defaultLimit

    @Option(help: "The nextCursor of the previous page.")
    var cursor: String?

    func validate() throws {
        guard (1...100).contains(limit) else { throw ValidationError("--limit must be between 1 and 100, got \(limit)") }
        if let cursor {
            do {
                _ = try ParentActivityCursor(encoded: cursor)
            } catch {
                throw ValidationError("invalid --cursor '\(cursor)': \(error.description)")
            }
        }
    }

    func run() async throws {
        let after = try cursor.map { try ParentActivityCursor(encoded: $0) }
        let (result, names) = try await options.withUserScope(user) { scope, _ in
            let repository = FamilyActivityRepository(scope: scope)
            let result = try await repository.page(familyId: family, limit: limit, after: after)
            return (result, options.json ? [:] : try await repository.parentNames(of: result.page))
        }
        if options.json { return try Output.json(result.page) }
        let now = Date()
        Output.table(
            ["when", "activity", "changes", "device"],
            result.page.activities.map { activity in
                [RelativeTime.feed(activity.createdAt, now: now),
                 activity.summary(parentName: names[activity.triggeringUserId] ?? "A parent"),
                 activity.changes.changes.map(\.description).joined(separator: "; "),
                 activity.deviceId ?? ""]
            }, maxWidth: 60)
        if let next = result.page.nextCursor {
            Output.line("next page: --cursor \(next.encoded)")
        } else {
            Output.line("(last page)")
        }
    }
}
