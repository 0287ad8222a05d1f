import Foundation

/// One entry of a family's co-parent activity log (`parent_activities`).
///
/// Its JSON uses the spec's names: `familyID`, `triggeringUserID`,
/// `targetEntityID`, `deviceID`, and `timestamp` for `created_at`.
public struct ParentActivity: Sendable, Hashable, Identifiable {
    /// How many days of activity the feed shows.
    public static let retentionDays = 30

    /// `parent_activities.id`.
    public var id: UUID
    /// `parent_activities.family_unit_id`.
    public var familyId: UUID
    /// `parent_activities.triggering_user_id`: the parent who acted.
    public var triggeringUserId: UUID
    /// What the parent did.
    public var activityType: ParentActivityType
    /// What it was done to, as shown (e.g. a child's name, an app, `Screen time`).
    public var targetEntity: String
    /// The id of what it was done to.
    public var targetEntityId: UUID
    /// Before/after values per field.
    public var changes: ParentActivityChanges
    /// The device the change came from.
    public var deviceId: String?
    /// `parent_activities.created_at`.
    public var createdAt: Date

    /// Creates an activity.
    public init(
        id: UUID, familyId: UUID, triggeringUserId: UUID, activityType: ParentActivityType, targetEntity: String,
        targetEntityId: UUID, changes: ParentActivityChanges = ParentActivityChanges(), deviceId: String? = nil,
        createdAt: Date
    ) {
        self.id = id
        self.familyId = familyId
        self.triggeringUserId = triggeringUserId
        self.activityType = activityType
        self.targetEntity = targetEntity
        self.targetEntityId = targetEntityId
        self.changes = changes
        self.deviceId = deviceId
        self.createdAt = createdAt
    }

    /// The oldest `created_at` the feed shows: 30 days before `now`.
    public static func windowStart(now: Date, calendar: Calendar = CompassCalendar.utc) -> Date {
        CompassCalendar.date(daysBefore: now, days: retentionDays, in: calendar)
    }

    /// Whether the activity is inside the 30-day window at `now`.
    public func isWithinWindow(now: Date, calendar: Calendar = CompassCalendar.utc) -> Bool {
        createdAt >= Self.windowStart(now: now, calendar: calendar)
    }

    /// The feed line: `<parent> <action>: <target>`, e.g. `Sam adjusted points: Emma`.
    public func summary(parentName: String) -> String {
        "\(parentName) \(activityType.actionPhrase): \(targetEntity)"
    }

    /// Feed order, the one the keyset query uses: newer first, equal times by descending id.
    ///
    /// Times compare at PostgreSQL's microsecond precision.
    public func precedes(_ other: ParentActivity) -> Bool {
        let mine = CompassTimestamp.microseconds(of: createdAt)
        let theirs = CompassTimestamp.microseconds(of: other.createdAt)
        return mine != theirs ? mine > theirs : other.id.sortsBefore(id)
    }
}

extension ParentActivity: Codable {
    private enum CodingKeys: String, CodingKey {
        case id
        case familyId = "familyID"
        case triggeringUserId = "triggeringUserID"
        case activityType, targetEntity
        case targetEntityId = "targetEntityID"
        case changes
        case deviceId = "deviceID"
        case createdAt = "timestamp"
    }

    /// Decodes the spec's JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        familyId = try container.decode(UUID.self, forKey: .familyId)
        triggeringUserId = try container.decode(UUID.self, forKey: .triggeringUserId)
        activityType = try container.decode(ParentActivityType.self, forKey: .activityType)
        targetEntity = try container.decode(String.self, forKey: .targetEntity)
        targetEntityId = try container.decode(UUID.self, forKey: .targetEntityId)
        changes = try container.decodeIfPresent(ParentActivityChanges.self, forKey: .changes) ?? ParentActivityChanges()
        deviceId = try container.decodeIfPresent(String.self, forKey: .deviceId)
        createdAt = try container.decodeTimestamp(forKey: .createdAt)
    }

    /// Encodes the spec's names, lower-case ids, an ISO 8601 `timestamp` and explicit nulls.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeUUID(id, forKey: .id)
        try container.encodeUUID(familyId, forKey: .familyId)
        try container.encodeUUID(triggeringUserId, forKey: .triggeringUserId)
        try container.encode(activityType, forKey: .activityType)
        try container.encode(targetEntity, forKey: .targetEntity)
        try container.encodeUUID(targetEntityId, forKey: .targetEntityId)
        try container.encode(changes, forKey: .changes)
        try container.encode(deviceId, forKey: .deviceId)
        try container.encodeTimestamp(createdAt, forKey: .createdAt)
    }
}
