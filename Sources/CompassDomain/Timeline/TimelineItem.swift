import Foundation

/// One item on the recruiting timeline, built from an event, interaction, offer or status change.
public struct TimelineItem: Sendable, Hashable, Identifiable {
    /// Prefixed id: `event-<uuid>`, `interaction-<uuid>`, `offer-<uuid>`, `status-<uuid>`.
    public var id: String
    /// The source row's id.
    public var sourceId: UUID
    /// What kind of item this is.
    public var type: TimelineItemType
    /// The source's own type as a label, e.g. `Phone Call`, `Full Ride`.
    public var typeLabel: String
    /// The emoji shown on the item.
    public var emoji: String
    /// The item's text, e.g. the event's name or the interaction's subject.
    public var label: String
    /// When the item happened or starts.
    public var date: Date
    /// When an item with a duration ends.
    public var endDate: Date?
    /// The school the item belongs to; `nil` puts it in the "No School" lane.
    public var schoolId: UUID?
    /// The school's name; `Unknown School` when the id was not found, `nil` without a school.
    public var schoolName: String?
    /// Extra text for the detail view, e.g. a status change's notes.
    public var details: String?

    /// Creates an item.
    public init(
        id: String, sourceId: UUID, type: TimelineItemType, typeLabel: String, emoji: String, label: String,
        date: Date, endDate: Date? = nil, schoolId: UUID? = nil, schoolName: String? = nil, details: String? = nil
    ) {
        self.id = id
        self.sourceId = sourceId
        self.type = type
        self.typeLabel = typeLabel
        self.emoji = emoji
        self.label = label
        self.date = date
        self.endDate = endDate
        self.schoolId = schoolId
        self.schoolName = schoolName
        self.details = details
    }

    /// Where tapping the item leads, e.g. `/events/<id>`; `nil` for status changes, which show an alert instead.
    public var detailPath: String? {
        switch type {
        case .event: return "/events/\(sourceId.lowercasedString)"
        case .interaction: return "/interactions/\(sourceId.lowercasedString)"
        case .offer: return "/offers/\(sourceId.lowercasedString)"
        case .statusChange: return nil
        }
    }

    /// Whether the item is drawn as a dot: it has no end date, or ends when it starts.
    public var isPointInTime: Bool {
        guard let endDate else { return true }
        return endDate <= date
    }

    /// Whether `self` comes before `other` in the timeline list: newer first, equal times by descending id.
    public func precedes(_ other: TimelineItem) -> Bool {
        date != other.date ? date > other.date : id > other.id
    }
}

extension TimelineItem: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, sourceId, type, typeLabel, emoji, label, date, endDate, schoolId, schoolName, details
    }

    /// Decodes the JSON that `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        sourceId = try container.decode(UUID.self, forKey: .sourceId)
        type = try container.decode(TimelineItemType.self, forKey: .type)
        typeLabel = try container.decode(String.self, forKey: .typeLabel)
        emoji = try container.decode(String.self, forKey: .emoji)
        label = try container.decode(String.self, forKey: .label)
        date = try container.decodeTimestamp(forKey: .date)
        endDate = try container.decodeTimestampIfPresent(forKey: .endDate)
        schoolId = try container.decodeIfPresent(UUID.self, forKey: .schoolId)
        schoolName = try container.decodeIfPresent(String.self, forKey: .schoolName)
        details = try container.decodeIfPresent(String.self, forKey: .details)
    }

    /// Encodes camelCase keys, ISO 8601 timestamps, lower-case ids and explicit nulls.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeUUID(sourceId, forKey: .sourceId)
        try container.encode(type, forKey: .type)
        try container.encode(typeLabel, forKey: .typeLabel)
        try container.encode(emoji, forKey: .emoji)
        try container.encode(label, forKey: .label)
        try container.encodeTimestamp(date, forKey: .date)
        try container.encodeTimestamp(endDate, forKey: .endDate)
        try container.encodeUUID(schoolId, forKey: .schoolId)
        try container.encode(schoolName, forKey: .schoolName)
        try container.encode(details, forKey: .details)
    }
}
