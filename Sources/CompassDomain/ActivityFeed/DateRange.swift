import Foundation

/// The Activity Feed's date filter.
public enum DateRange: String, Sendable, Hashable, Codable, CaseIterable {
    /// Everything.
    case all
    /// The last 7 days.
    case week
    /// The last 30 days.
    case month
    /// The last 90 days.
    case quarter

    /// `All Time`, `Last 7 Days`, `Last 30 Days`, `Last 90 Days`.
    public var label: String {
        switch self {
        case .all: return "All Time"
        case .week: return "Last 7 Days"
        case .month: return "Last 30 Days"
        case .quarter: return "Last 90 Days"
        }
    }

    /// How many days back the range reaches; `nil` for `all`.
    public var daysAgo: Int? {
        switch self {
        case .all: return nil
        case .week: return 7
        case .month: return 30
        case .quarter: return 90
        }
    }

    /// The earliest timestamp the range keeps (inclusive), or `nil` for `all`.
    public func cutoff(now: Date, calendar: Calendar = CompassCalendar.utc) -> Date? {
        daysAgo.map { CompassCalendar.date(daysBefore: now, days: $0, in: calendar) }
    }
}
