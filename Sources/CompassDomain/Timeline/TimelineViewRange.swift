import Foundation

/// How far back the timeline reaches: 3, 6 or 12 months, or all time; it always runs 2 months ahead.
public enum TimelineViewRange: String, Sendable, Hashable, Codable, CaseIterable {
    /// The last 3 months.
    case threeMonths = "3"
    /// The last 6 months (the default).
    case sixMonths = "6"
    /// The last 12 months.
    case twelveMonths = "12"
    /// From the earliest item.
    case allTime = "all"

    /// The range a new timeline opens with, and the one an invalid stored value reverts to.
    public static let `default` = TimelineViewRange.sixMonths

    /// How many months the timeline shows after today.
    public static let monthsAhead = 2

    /// `3 Months`, `6 Months`, `12 Months`, `All Time`.
    public var label: String {
        switch self {
        case .threeMonths: return "3 Months"
        case .sixMonths: return "6 Months"
        case .twelveMonths: return "12 Months"
        case .allTime: return "All Time"
        }
    }

    /// How many months back the range reaches; `nil` for all time.
    public var monthsBack: Int? {
        switch self {
        case .threeMonths: return 3
        case .sixMonths: return 6
        case .twelveMonths: return 12
        case .allTime: return nil
        }
    }

    /// The dates the timeline spans for `items` seen on `today`.
    ///
    /// The end is 2 months after today. All time starts at the earliest item,
    /// or 6 months back when there is none; it never starts after today, so
    /// the span is never empty and today is always on it.
    public func dateInterval(
        for items: [TimelineItem], today: Date, calendar: Calendar = CompassCalendar.utc
    ) -> DateInterval {
        let end = months(Self.monthsAhead, from: today, calendar: calendar)
        let start: Date
        if let monthsBack {
            start = months(-monthsBack, from: today, calendar: calendar)
        } else if let earliest = items.map(\.date).min() {
            start = min(earliest, today)
        } else {
            start = months(-6, from: today, calendar: calendar)
        }
        return DateInterval(start: start, end: end)
    }

    private func months(_ count: Int, from date: Date, calendar: Calendar) -> Date {
        calendar.date(byAdding: .month, value: count, to: date) ?? date.addingTimeInterval(Double(count) * 30 * 86_400)
    }
}
