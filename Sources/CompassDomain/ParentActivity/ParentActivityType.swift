/// What a parent did, as stored in `parent_activities.activity_type` (snake_case).
public enum ParentActivityType: String, Sendable, Hashable, Codable, CaseIterable {
    /// An app was given a category.
    case appCategorizationAdded = "app_categorization_added"
    /// An app's category changed.
    case appCategorizationModified = "app_categorization_modified"
    /// An app's category was removed.
    case appCategorizationRemoved = "app_categorization_removed"
    /// Points were added or taken away by hand.
    case pointsAdjusted = "points_adjusted"
    /// A reward was redeemed.
    case rewardRedeemed = "reward_redeemed"
    /// A child's profile changed.
    case childProfileModified = "child_profile_modified"
    /// Family settings changed.
    case settingsUpdated = "settings_updated"
    /// A new child joined the family.
    case childAdded = "child_added"

    /// The action's title, e.g. `Points Adjusted`, `New Child Added`.
    public var displayName: String {
        switch self {
        case .appCategorizationAdded: return "App Categorization Added"
        case .appCategorizationModified: return "App Categorization Modified"
        case .appCategorizationRemoved: return "App Categorization Removed"
        case .pointsAdjusted: return "Points Adjusted"
        case .rewardRedeemed: return "Reward Redeemed"
        case .childProfileModified: return "Child Profile Modified"
        case .settingsUpdated: return "Settings Updated"
        case .childAdded: return "New Child Added"
        }
    }

    /// The verb phrase after the parent's name, e.g. `adjusted points`.
    public var actionPhrase: String {
        switch self {
        case .appCategorizationAdded: return "added an app categorization"
        case .appCategorizationModified: return "modified an app categorization"
        case .appCategorizationRemoved: return "removed an app categorization"
        case .pointsAdjusted: return "adjusted points"
        case .rewardRedeemed: return "redeemed a reward"
        case .childProfileModified: return "modified a child profile"
        case .settingsUpdated: return "updated settings"
        case .childAdded: return "added a new child"
        }
    }

    /// The SF Symbol the iOS feed shows.
    public var symbolName: String {
        switch self {
        case .appCategorizationAdded: return "plus.app"
        case .appCategorizationModified: return "square.and.pencil"
        case .appCategorizationRemoved: return "minus.circle"
        case .pointsAdjusted: return "star.circle"
        case .rewardRedeemed: return "gift"
        case .childProfileModified: return "person.crop.circle"
        case .settingsUpdated: return "gearshape"
        case .childAdded: return "person.badge.plus"
        }
    }
}
