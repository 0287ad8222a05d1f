/// The names the feed's type filter accepts (`compass feed --type`, `GET /api/v1/feed?type=`).
extension ActivityEventType {
    /// The event type a filter value names: the raw value or its short forms (`status`, `document`).
    public init?(filterName: String) {
        switch filterName {
        case "interaction", "interactions": self = .interaction
        case "school_status_change", "status", "status_change": self = .schoolStatusChange
        case "document_upload", "document", "documents": self = .documentUpload
        default: return nil
        }
    }
}
