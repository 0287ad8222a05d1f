import Foundation

/// A logged communication with a coach (`interactions` row).
public struct Interaction: Sendable, Hashable, Identifiable {
    /// `interactions.id`.
    public var id: UUID
    /// `interactions.family_unit_id`: the parent view's scope.
    public var familyUnitId: UUID
    /// `interactions.user_id`: the athlete the interaction belongs to.
    public var userId: UUID
    /// `interactions.logged_by`: who logged it (the athlete view's scope).
    public var loggedBy: UUID
    /// `interactions.school_id`; `nil` when none was chosen or the school was deleted.
    public var schoolId: UUID?
    /// `interactions.coach_id`; `nil` when none was chosen or the coach was deleted.
    public var coachId: UUID?
    /// How it happened.
    public var type: InteractionType
    /// Who reached out.
    public var direction: InteractionDirection
    /// `interactions.subject`.
    public var subject: String?
    /// `interactions.content`.
    public var content: String?
    /// How it felt, if recorded.
    public var sentiment: InteractionSentiment?
    /// When it happened, if recorded.
    public var occurredAt: Date?
    /// Attachment paths or URLs.
    public var attachments: [String]
    /// `interactions.created_at`.
    public var createdAt: Date
    /// `interactions.updated_at`.
    public var updatedAt: Date?

    /// Creates an interaction.
    public init(
        id: UUID, familyUnitId: UUID, userId: UUID, loggedBy: UUID, schoolId: UUID? = nil, coachId: UUID? = nil,
        type: InteractionType, direction: InteractionDirection, subject: String? = nil, content: String? = nil,
        sentiment: InteractionSentiment? = nil, occurredAt: Date? = nil, attachments: [String] = [],
        createdAt: Date, updatedAt: Date? = nil
    ) {
        self.id = id
        self.familyUnitId = familyUnitId
        self.userId = userId
        self.loggedBy = loggedBy
        self.schoolId = schoolId
        self.coachId = coachId
        self.type = type
        self.direction = direction
        self.subject = subject
        self.content = content
        self.sentiment = sentiment
        self.occurredAt = occurredAt
        self.attachments = attachments
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The date the list shows and sorts on: `occurred_at`, else `created_at`.
    public var displayDate: Date { occurredAt ?? createdAt }

    /// The subject, or the type's name when there is none (`Email`).
    public var displaySubject: String {
        subject.flatMap { $0.isEmpty ? nil : $0 } ?? type.displayName
    }

    /// Whether the card shows an attachment indicator.
    public var hasAttachments: Bool { !attachments.isEmpty }

    /// How many attachments the interaction has.
    public var attachmentCount: Int { attachments.count }

    /// List order: later display date first, equal dates by descending id.
    public func precedes(_ other: Interaction) -> Bool {
        displayDate != other.displayDate ? displayDate > other.displayDate : other.id.sortsBefore(id)
    }
}

extension Interaction: Codable {
    enum CodingKeys: String, CodingKey {
        case id, familyUnitId, userId, loggedBy, schoolId, coachId, type, direction, subject, content, sentiment
        case occurredAt, attachments, createdAt, updatedAt
    }

    /// Decodes the camelCase JSON that `encode(to:)` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        familyUnitId = try container.decode(UUID.self, forKey: .familyUnitId)
        userId = try container.decode(UUID.self, forKey: .userId)
        loggedBy = try container.decode(UUID.self, forKey: .loggedBy)
        schoolId = try container.decodeIfPresent(UUID.self, forKey: .schoolId)
        coachId = try container.decodeIfPresent(UUID.self, forKey: .coachId)
        type = try container.decode(InteractionType.self, forKey: .type)
        direction = try container.decode(InteractionDirection.self, forKey: .direction)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        content = try container.decodeIfPresent(String.self, forKey: .content)
        sentiment = try container.decodeIfPresent(InteractionSentiment.self, forKey: .sentiment)
        occurredAt = try container.decodeTimestampIfPresent(forKey: .occurredAt)
        attachments = try container.decodeIfPresent([String].self, forKey: .attachments) ?? []
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
        updatedAt = try container.decodeTimestampIfPresent(forKey: .updatedAt)
    }

    /// Encodes camelCase keys, ISO 8601 timestamps, lower-case ids and explicit nulls.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeUUID(id, forKey: .id)
        try container.encodeUUID(familyUnitId, forKey: .familyUnitId)
        try container.encodeUUID(userId, forKey: .userId)
        try container.encodeUUID(loggedBy, forKey: .loggedBy)
        try container.encodeUUID(schoolId, forKey: .schoolId)
        try container.encodeUUID(coachId, forKey: .coachId)
        try container.encode(type, forKey: .type)
        try container.encode(direction, forKey: .direction)
        try container.encode(subject, forKey: .subject)
        try container.encode(content, forKey: .content)
        try container.encode(sentiment, forKey: .sentiment)
        try container.encodeTimestamp(occurredAt, forKey: .occurredAt)
        try container.encode(attachments, forKey: .attachments)
        try container.encodeTimestamp(createdAt, forKey: .createdAt)
        try container.encodeTimestamp(updatedAt, forKey: .updatedAt)
    }
}
