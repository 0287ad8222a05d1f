import Foundation

/// What the timeline draws: its span, month headers, swimlanes, the list, and the "Today" marker.
public struct TimelineLayout: Sendable, Hashable {
    /// The span of the bar.
    public var interval: DateInterval
    /// The month headers across the span.
    public var months: [TimelineMonth]
    /// One lane per school (and "No School"), sorted by name.
    public var swimlanes: [TimelineSwimlane]
    /// The visible items for the list below the lanes, newest first.
    public var items: [TimelineItem]
    /// The "Today" marker's position in percent; `nil` when today is off the span.
    public var todayPosition: Double?

    /// Creates a layout.
    public init(
        interval: DateInterval, months: [TimelineMonth], swimlanes: [TimelineSwimlane], items: [TimelineItem],
        todayPosition: Double?
    ) {
        self.interval = interval
        self.months = months
        self.swimlanes = swimlanes
        self.items = items
        self.todayPosition = todayPosition
    }

    /// Whether nothing is left to draw (the "No items match your filters" state).
    public var isEmpty: Bool { items.isEmpty }
}

extension TimelineLayout: Encodable {
    private enum CodingKeys: String, CodingKey {
        case start, end, months, swimlanes, items, todayPosition
    }

    /// Encodes `start`/`end` as ISO 8601 timestamps with the months, lanes, items and today's position.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeTimestamp(interval.start, forKey: .start)
        try container.encodeTimestamp(interval.end, forKey: .end)
        try container.encode(months, forKey: .months)
        try container.encode(swimlanes, forKey: .swimlanes)
        try container.encode(items, forKey: .items)
        try container.encode(todayPosition, forKey: .todayPosition)
    }
}
