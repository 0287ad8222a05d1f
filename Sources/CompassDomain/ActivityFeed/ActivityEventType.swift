/// The three sources of the Activity Feed.
public enum ActivityEventType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A logged interaction with a coach.
    case interaction
    /// A school's recruiting status changed.
    case schoolStatusChange = "school_status_change"
    /// A document was uploaded.
    case documentUpload = "document_upload"

    /// The type filter's label: `Interactions`, `School Status Changes`, `Documents`.
    public var label: String {
        switch self {
        case .interaction: return "Interactions"
        case .schoolStatusChange: return "School Status Changes"
        case .documentUpload: return "Documents"
        }
    }

    /// The prefix of the ids of events of this type: `interaction-`, `status-`, `doc-`.
    public var idPrefix: String {
        switch self {
        case .interaction: return "interaction-"
        case .schoolStatusChange: return "status-"
        case .documentUpload: return "doc-"
        }
    }
}
