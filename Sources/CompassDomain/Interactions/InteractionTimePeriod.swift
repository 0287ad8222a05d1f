import Foundation

/// The interactions list's time filter: the last 7, 14, 30 or 90 days.
public enum InteractionTimePeriod: Int, Sendable, Hashable, Codable, CaseIterable {
    /// The last 7 days.
    case last7Days = 7
    /// The last 14 days.
    case last14Days = 14
    /// The last 30 days.
    case last30Days = 30
    /// The last 90 days.
    case last90Days = 90

    /// The number of days the period spans.
    public var days: Int { rawValue }

    /// `Last 7 days` and so on.
    public var displayName: String { "Last \(rawValue) days" }

    /// The earliest display date the period keeps: `days` days before `now` in `calendar`.
    public func cutoff(now: Date, calendar: Calendar = CompassCalendar.utc) -> Date {
        CompassCalendar.date(daysBefore: now, days: days, in: calendar)
    }
}
