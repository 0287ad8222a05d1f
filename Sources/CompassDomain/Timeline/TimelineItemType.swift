/// The four kinds of item on the recruiting timeline.
public enum TimelineItemType: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// An event (camp, visit, game…) from `events`.
    case event
    /// An interaction with a coach.
    case interaction
    /// A scholarship offer.
    case offer
    /// A school's status change.
    case statusChange = "status_change"

    /// `Event`, `Interaction`, `Offer`, `Status Change`.
    public var displayName: String {
        switch self {
        case .event: return "Event"
        case .interaction: return "Interaction"
        case .offer: return "Offer"
        case .statusChange: return "Status Change"
        }
    }

    /// The legend colour as `#RRGGBB`, from the spec's palette.
    public var colorHex: String {
        switch self {
        case .event: return "#0066FF"
        case .interaction: return "#00CC66"
        case .offer: return "#FFD700"
        case .statusChange: return "#6B7280"
        }
    }

    /// The prefix of the ids of items of this type: `event-`, `interaction-`, `offer-`, `status-`.
    public var idPrefix: String {
        switch self {
        case .event: return "event-"
        case .interaction: return "interaction-"
        case .offer: return "offer-"
        case .statusChange: return "status-"
        }
    }

    /// Legend order: events, interactions, offers, status changes.
    public static func < (lhs: TimelineItemType, rhs: TimelineItemType) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
