/// How an interaction felt (`interactions.sentiment`, nullable).
public enum InteractionSentiment: String, Sendable, Hashable, Codable, CaseIterable {
    /// Very positive.
    case veryPositive = "very_positive"
    /// Positive.
    case positive
    /// Neutral.
    case neutral
    /// Negative.
    case negative

    /// The label the apps show, e.g. `Very Positive`.
    public var displayName: String {
        switch self {
        case .veryPositive: return "Very Positive"
        case .positive: return "Positive"
        case .neutral: return "Neutral"
        case .negative: return "Negative"
        }
    }
}
