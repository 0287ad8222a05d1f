import Foundation

/// The interactions page: the filtered list with names, and the analytics of that same list.
///
/// ```swift
/// let listing = InteractionListing(all: fetched, filters: filters, names: lookup, now: .now)
/// try JSONEncoder().encode(listing)   // {"interactions": [...], "analytics": {...}}
/// ```
public struct InteractionListing: Sendable, Hashable, Encodable {
    /// One card: the interaction and its school and coach lines.
    public struct Item: Sendable, Hashable, Identifiable, Encodable {
        /// The interaction.
        public var interaction: Interaction
        /// The school line; `nil` without a school, `Unknown School` when it was not found.
        public var schoolName: String?
        /// The coach line; `nil` without a coach, `Unknown Coach` when it was not found.
        public var coachName: String?

        /// Creates a card.
        public init(interaction: Interaction, schoolName: String?, coachName: String?) {
            self.interaction = interaction
            self.schoolName = schoolName
            self.coachName = coachName
        }

        /// The card's identity is the interaction's.
        public var id: UUID { interaction.id }

        private enum ExtraKeys: String, CodingKey {
            case displayDate, schoolName, coachName
        }

        /// Encodes the interaction's fields plus `displayDate`, `schoolName` and `coachName`.
        public func encode(to encoder: any Encoder) throws {
            try interaction.encode(to: encoder)
            var container = encoder.container(keyedBy: ExtraKeys.self)
            try container.encodeTimestamp(interaction.displayDate, forKey: .displayDate)
            try container.encode(schoolName, forKey: .schoolName)
            try container.encode(coachName, forKey: .coachName)
        }
    }

    /// The cards that pass the filters, later display date first.
    public var interactions: [Item]
    /// The counts of exactly those cards.
    public var analytics: InteractionAnalytics

    /// Filters `all`, names each card, and counts the result.
    public init(
        all: [Interaction], filters: InteractionFilters, names: InteractionNameLookup, now: Date,
        calendar: Calendar = CompassCalendar.utc
    ) {
        let shown = filters.apply(to: all, now: now, calendar: calendar)
        interactions = shown.map { interaction in
            Item(interaction: interaction, schoolName: names.schoolName(for: interaction),
                 coachName: names.coachName(for: interaction))
        }
        analytics = InteractionAnalytics(of: shown, now: now, calendar: calendar)
    }

    /// `1 interaction found`, `3 interactions found`.
    public var resultsText: String {
        "\(interactions.count) interaction\(interactions.count == 1 ? "" : "s") found"
    }
}
