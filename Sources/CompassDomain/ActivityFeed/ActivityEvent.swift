import Foundation

/// One entry of the Activity Feed, in the spec's JSON shape.
///
/// ```swift
/// let events = ActivityFeed.merge(
///     interactions: rows, statusChanges: [], documents: [],
///     schoolNames: [schoolId: "Arizona State"], now: .now)
/// events[0].title      // "Email with Arizona State"
/// events[0].timestamp  // "2026-02-08T14:30:00.000+00:00"
/// ```
///
/// It encodes exactly the spec's twelve camelCase keys, with `null` for absent
/// values. `date` is the parsed `timestamp` the rules sort and filter on; it is
/// not encoded.
public struct ActivityEvent: Sendable, Hashable, Identifiable {
    /// Prefixed id: `interaction-<uuid>`, `status-<uuid>` or `doc-<uuid>`.
    public var id: String
    /// Which source the event came from.
    public var type: ActivityEventType
    /// The event's time as ISO 8601 with milliseconds and an offset.
    public private(set) var timestamp: String
    /// One-line title, e.g. `Email with Arizona State`.
    public var title: String
    /// Up to 50 characters of the source's text; never ellipsised here.
    public var description: String
    /// The emoji shown next to the event.
    public var icon: String
    /// `school` or `document`.
    public var entityType: String?
    /// The id of the school or document the event is about.
    public var entityId: String?
    /// The school name (or `Unknown School`) or the document title.
    public var entityName: String?
    /// `{"relativeTime": "2h ago"}` as of when the event was built.
    public var metadata: [String: String]?
    /// Whether tapping the event opens `clickUrl`.
    public var isClickable: Bool
    /// The web route the event opens, e.g. `/interactions/<uuid>`.
    public var clickUrl: String?
    /// `timestamp` as a date, rounded to milliseconds.
    public private(set) var date: Date

    /// Creates an event; `date` is rounded to milliseconds and `timestamp` is written from it in `timeZone`.
    public init(
        id: String, type: ActivityEventType, date: Date, title: String, description: String, icon: String,
        entityType: String?, entityId: String?, entityName: String?, metadata: [String: String]?,
        isClickable: Bool, clickUrl: String?, timeZone: TimeZone = TimeZone(identifier: "UTC")!
    ) {
        self.id = id
        self.type = type
        self.date = CompassTimestamp.roundedToMilliseconds(date)
        self.timestamp = CompassTimestamp.string(from: self.date, timeZone: timeZone)
        self.title = title
        self.description = description
        self.icon = icon
        self.entityType = entityType
        self.entityId = entityId
        self.entityName = entityName
        self.metadata = metadata
        self.isClickable = isClickable
        self.clickUrl = clickUrl
    }

    /// The metadata key that holds the relative time.
    public static let relativeTimeKey = "relativeTime"

    /// `metadata["relativeTime"]`, e.g. `2h ago`.
    public var relativeTime: String? { metadata?[Self.relativeTimeKey] }

    /// A copy whose relative time is recomputed for `now` (a widget that stays open keeps its texts current).
    public func refreshingRelativeTime(now: Date, calendar: Calendar = CompassCalendar.utc) -> ActivityEvent {
        var copy = self
        var metadata = copy.metadata ?? [:]
        metadata[Self.relativeTimeKey] = RelativeTime.feed(date, now: now, calendar: calendar)
        copy.metadata = metadata
        return copy
    }

    /// Whether `self` comes before `other` in the feed: newer first, equal times by descending id.
    ///
    /// Descending id matches `ORDER BY … DESC, id DESC`, so every list in the
    /// backend breaks ties the same way.
    public func precedes(_ other: ActivityEvent) -> Bool {
        date != other.date ? date > other.date : id > other.id
    }
}

extension ActivityEvent: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, type, timestamp, title, description, icon, entityType, entityId, entityName, metadata
        case isClickable, clickUrl
    }

    /// Decodes the spec's JSON; `timestamp` must be ISO 8601 with an offset.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        type = try container.decode(ActivityEventType.self, forKey: .type)
        timestamp = try container.decode(String.self, forKey: .timestamp)
        date = try container.decodeTimestamp(forKey: .timestamp)
        title = try container.decode(String.self, forKey: .title)
        description = try container.decode(String.self, forKey: .description)
        icon = try container.decode(String.self, forKey: .icon)
        entityType = try container.decodeIfPresent(String.self, forKey: .entityType)
        entityId = try container.decodeIfPresent(String.self, forKey: .entityId)
        entityName = try container.decodeIfPresent(String.self, forKey: .entityName)
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata)
        isClickable = try container.decode(Bool.self, forKey: .isClickable)
        clickUrl = try container.decodeIfPresent(String.self, forKey: .clickUrl)
    }

    /// Encodes all twelve keys, writing `null` for absent values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(type, forKey: .type)
        try container.encode(timestamp, forKey: .timestamp)
        try container.encode(title, forKey: .title)
        try container.encode(description, forKey: .description)
        try container.encode(icon, forKey: .icon)
        try container.encode(entityType, forKey: .entityType)
        try container.encode(entityId, forKey: .entityId)
        try container.encode(entityName, forKey: .entityName)
        try container.encode(metadata, forKey: .metadata)
        try container.encode(isClickable, forKey: .isClickable)
        try container.encode(clickUrl, forKey: .clickUrl)
    }
}
