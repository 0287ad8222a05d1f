/// Who started an interaction (`interactions.direction`).
public enum InteractionDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// The family reached out to the coach.
    case outbound
    /// The coach reached out to the family.
    case inbound

    /// `Outbound` or `Inbound`.
    public var displayName: String {
        switch self {
        case .outbound: return "Outbound"
        case .inbound: return "Inbound"
        }
    }
}
