import Foundation

/// Where an item sits on its swimlane's bar, in percent of the bar's width.
public struct TimelinePlacement: Sendable, Hashable, Codable {
    /// The narrowest an item is drawn, in percent, so dots and short events stay tappable.
    public static let minimumWidth = 2.0

    /// The left edge, 0–100.
    public var left: Double
    /// The width; at least `minimumWidth` unless the item sits at the bar's right end.
    public var width: Double
    /// Whether the item is drawn as a dot rather than a bar.
    public var isPoint: Bool
    /// The row within the lane, 0 first; overlapping items go one row down each.
    public var stackLevel: Int

    /// Creates a placement.
    public init(left: Double, width: Double, isPoint: Bool, stackLevel: Int = 0) {
        self.left = left
        self.width = width
        self.isPoint = isPoint
        self.stackLevel = stackLevel
    }

    /// The placement of `item` on a bar spanning `interval`, with `stackLevel` 0.
    ///
    /// `left` is the start's share of the span, clamped to 0–100. A bar's width is
    /// its visible duration's share, at least 2%; a dot is 2% wide. The width is
    /// then cut so the item never runs past the bar's right end.
    public static func place(_ item: TimelineItem, in interval: DateInterval) -> TimelinePlacement {
        let left = percent(of: item.date, in: interval)
        var width = minimumWidth
        if !item.isPointInTime, let end = item.endDate {
            width = max(minimumWidth, percent(of: end, in: interval) - left)
        }
        return TimelinePlacement(left: left, width: min(width, 100 - left), isPoint: item.isPointInTime)
    }

    /// `date`'s position on a bar spanning `interval`, in percent, clamped to 0–100.
    public static func percent(of date: Date, in interval: DateInterval) -> Double {
        guard interval.duration > 0 else { return 0 }
        let share = date.timeIntervalSince(interval.start) / interval.duration * 100
        return min(100, max(0, share))
    }

    /// The right edge, `left + width`.
    public var right: Double { left + width }
}
