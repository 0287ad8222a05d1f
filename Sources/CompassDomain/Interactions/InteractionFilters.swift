import Foundation

/// The interactions list's filters; they combine with AND.
///
/// ```swift
/// let filters = InteractionFilters(searchText: "camp", direction: .inbound, timePeriod: .last30Days)
/// let shown = filters.apply(to: all, now: .now)
/// let cards = InteractionAnalytics(of: shown, now: .now)   // counts of what is shown
/// ```
public struct InteractionFilters: Sendable, Hashable, Codable {
    /// Text to find in the subject or content, ignoring case and surrounding spaces.
    public var searchText: String
    /// Only this type.
    public var type: InteractionType?
    /// Only this direction.
    public var direction: InteractionDirection?
    /// Only this sentiment.
    public var sentiment: InteractionSentiment?
    /// Only interactions whose display date is in this period.
    public var timePeriod: InteractionTimePeriod?
    /// Only interactions logged by this user (the parent view's "Logged By").
    public var loggedBy: UUID?

    /// Creates filters; the defaults filter nothing.
    public init(
        searchText: String = "", type: InteractionType? = nil, direction: InteractionDirection? = nil,
        sentiment: InteractionSentiment? = nil, timePeriod: InteractionTimePeriod? = nil, loggedBy: UUID? = nil
    ) {
        self.searchText = searchText
        self.type = type
        self.direction = direction
        self.sentiment = sentiment
        self.timePeriod = timePeriod
        self.loggedBy = loggedBy
    }

    /// Whether any filter is set (the "Clear all" chip shows).
    public var hasActiveFilters: Bool {
        activeFilterCount > 0
    }

    /// How many filters are set, one chip each.
    public var activeFilterCount: Int {
        let flags = [!normalizedSearch.isEmpty, type != nil, direction != nil, sentiment != nil, timePeriod != nil,
                     loggedBy != nil]
        return flags.filter { $0 }.count
    }

    /// Whether `interaction` passes every filter at `now`.
    public func matches(_ interaction: Interaction, now: Date, calendar: Calendar = CompassCalendar.utc) -> Bool {
        if let type, interaction.type != type { return false }
        if let direction, interaction.direction != direction { return false }
        if let sentiment, interaction.sentiment != sentiment { return false }
        if let loggedBy, interaction.loggedBy != loggedBy { return false }
        if let timePeriod, interaction.displayDate < timePeriod.cutoff(now: now, calendar: calendar) { return false }
        let search = normalizedSearch
        guard !search.isEmpty else { return true }
        return [interaction.subject, interaction.content].contains { $0?.lowercased().contains(search) ?? false }
    }

    /// The interactions that pass, later display date first, equal dates by descending id.
    public func apply(
        to interactions: [Interaction], now: Date, calendar: Calendar = CompassCalendar.utc
    ) -> [Interaction] {
        interactions.filter { matches($0, now: now, calendar: calendar) }.sorted { $0.precedes($1) }
    }

    private var normalizedSearch: String {
        searchText.lowercased()
    }
}
