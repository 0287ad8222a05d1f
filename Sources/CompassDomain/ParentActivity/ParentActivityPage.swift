import Foundation

/// One page of the family activity feed: `{"activities": […], "nextCursor": "…" | null}`.
public struct ParentActivityPage: Sendable, Hashable {
    /// How many activities a page holds when the caller does not say.
    public static let defaultLimit = 20

    /// The page's activities, newest first.
    public var activities: [ParentActivity]
    /// Where the next page starts; `nil` on the last page.
    public var nextCursor: ParentActivityCursor?

    /// Creates a page.
    public init(activities: [ParentActivity], nextCursor: ParentActivityCursor?) {
        self.activities = activities
        self.nextCursor = nextCursor
    }

    /// The page from a query that fetched up to `limit + 1` rows: the extra row only says another page exists.
    ///
    /// - Precondition: `limit` is at least 1.
    public init(fetched rows: [ParentActivity], limit: Int) {
        precondition(limit >= 1, "a page holds at least one activity")
        let ordered = rows.sorted { $0.precedes($1) }
        activities = Array(ordered.prefix(limit))
        nextCursor = ordered.count > limit ? activities.last.map(ParentActivityCursor.init(after:)) : nil
    }

    /// The page that the keyset query returns from `all`, in memory: the window, the cursor, the order and the limit.
    ///
    /// It states the query's meaning in Swift, so tests can compare the two.
    public static func page(
        of all: [ParentActivity], after cursor: ParentActivityCursor?, limit: Int, now: Date,
        calendar: Calendar = CompassCalendar.utc
    ) -> ParentActivityPage {
        let candidates = all.filter { activity in
            activity.isWithinWindow(now: now, calendar: calendar) && (cursor?.admits(activity) ?? true)
        }
        let firstRows = candidates.sorted { $0.precedes($1) }.prefix(limit + 1)
        return ParentActivityPage(fetched: Array(firstRows), limit: limit)
    }
}

extension ParentActivityPage: Codable {
    private enum CodingKeys: String, CodingKey {
        case activities, nextCursor
    }

    /// Decodes the JSON that `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        activities = try container.decode([ParentActivity].self, forKey: .activities)
        nextCursor = try container.decodeIfPresent(ParentActivityCursor.self, forKey: .nextCursor)
    }

    /// Encodes both keys, with `null` for the last page's cursor.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(activities, forKey: .activities)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
