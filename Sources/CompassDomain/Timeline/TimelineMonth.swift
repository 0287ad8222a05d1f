import Foundation

/// One month header of the timeline, with where it sits on the bar.
public struct TimelineMonth: Sendable, Hashable, Codable, Identifiable {
    /// `2025-01`.
    public var key: String
    /// `Jan`.
    public var label: String
    /// `2025`.
    public var year: Int
    /// The first instant of the month in the layout's calendar.
    public var date: Date
    /// Where the month's visible part starts on the bar, in percent (0–100).
    public var left: Double
    /// How much of the bar the month's visible part covers, in percent.
    public var width: Double

    /// The month's identity is its key.
    public var id: String { key }

    /// Creates a month header.
    public init(key: String, label: String, year: Int, date: Date, left: Double, width: Double) {
        self.key = key
        self.label = label
        self.year = year
        self.date = date
        self.left = left
        self.width = width
    }

    /// Every month that `interval` touches, first to last, placed on the bar.
    public static func months(in interval: DateInterval, calendar: Calendar = CompassCalendar.utc) -> [TimelineMonth] {
        guard var monthStart = calendar.dateInterval(of: .month, for: interval.start)?.start else { return [] }
        var months: [TimelineMonth] = []
        while monthStart < interval.end {
            guard let next = calendar.date(byAdding: .month, value: 1, to: monthStart) else { break }
            let parts = calendar.dateComponents([.year, .month], from: monthStart)
            let year = parts.year ?? 0
            let month = parts.month ?? 1
            let left = TimelinePlacement.percent(of: max(monthStart, interval.start), in: interval)
            let right = TimelinePlacement.percent(of: min(next, interval.end), in: interval)
            months.append(TimelineMonth(
                key: "\(year)-\(month < 10 ? "0" : "")\(month)", label: RelativeTime.monthAbbreviation(month),
                year: year, date: monthStart, left: left, width: right - left))
            monthStart = next
        }
        return months
    }

    private enum CodingKeys: String, CodingKey {
        case key, label, year, date, left, width
    }

    /// Encodes the header with an ISO 8601 `date`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(label, forKey: .label)
        try container.encode(year, forKey: .year)
        try container.encodeTimestamp(date, forKey: .date)
        try container.encode(left, forKey: .left)
        try container.encode(width, forKey: .width)
    }

    /// Decodes what `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        label = try container.decode(String.self, forKey: .label)
        year = try container.decode(Int.self, forKey: .year)
        date = try container.decodeTimestamp(forKey: .date)
        left = try container.decode(Double.self, forKey: .left)
        width = try container.decode(Double.self, forKey: .width)
    }
}
