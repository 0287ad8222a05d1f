/// The three queries behind the Activity Feed, named for partial-failure warnings.
///
/// When one query fails the feed still shows the others' events, with the
/// failed source's `warning` (seed 000, "partial failure").
public enum ActivityFeedSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// `interactions WHERE logged_by = $1`.
    case interactions
    /// `school_status_history WHERE changed_by = $1`.
    case statusChanges = "school_status_history"
    /// `documents WHERE user_id = $1`.
    case documents

    /// The table the source reads.
    public var tableName: String {
        switch self {
        case .interactions: return "interactions"
        case .statusChanges: return "school_status_history"
        case .documents: return "documents"
        }
    }

    /// The kind of event the source yields.
    public var eventType: ActivityEventType {
        switch self {
        case .interactions: return .interaction
        case .statusChanges: return .schoolStatusChange
        case .documents: return .documentUpload
        }
    }

    /// The banner text when this source failed, e.g. `Documents could not be loaded; showing the rest …`.
    public var warning: String {
        "\(eventType.label) could not be loaded; showing the rest of your activity."
    }
}
