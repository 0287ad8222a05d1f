import Foundation

/// The four cards above the interactions list, counted over the filtered list.
public struct InteractionAnalytics: Sendable, Hashable, Codable {
    /// How many days "This Week" reaches back.
    public static let thisWeekDays = 7

    /// All shown interactions.
    public var totalCount: Int
    /// Shown outbound interactions.
    public var outboundCount: Int
    /// Shown inbound interactions.
    public var inboundCount: Int
    /// Shown interactions whose display date is within the last 7 days.
    public var thisWeekCount: Int

    /// Creates the counts.
    public init(totalCount: Int, outboundCount: Int, inboundCount: Int, thisWeekCount: Int) {
        self.totalCount = totalCount
        self.outboundCount = outboundCount
        self.inboundCount = inboundCount
        self.thisWeekCount = thisWeekCount
    }

    /// Counts `interactions` — pass the filtered list, so that filters change the cards too.
    public init(of interactions: [Interaction], now: Date, calendar: Calendar = CompassCalendar.utc) {
        let weekAgo = CompassCalendar.date(daysBefore: now, days: Self.thisWeekDays, in: calendar)
        totalCount = interactions.count
        outboundCount = interactions.lazy.filter { $0.direction == .outbound }.count
        inboundCount = interactions.lazy.filter { $0.direction == .inbound }.count
        thisWeekCount = interactions.lazy.filter { $0.displayDate >= weekAgo }.count
    }
}
