import Foundation

/// Builds timeline items from the timeline queries' rows.
///
/// ```swift
/// let items = TimelineBuilder.items(events: e, interactions: i, offers: o, statusChanges: s,
///                                   schoolNames: names)
/// let layout = TimelineViewState().layout(of: items, today: .now)
/// ```
public enum TimelineBuilder {
    /// The name shown for an item whose school id was not found.
    public static let unknownSchoolName = "Unknown School"
    /// The emoji of events.
    public static let eventEmoji = "📅"
    /// The emoji of offers.
    public static let offerEmoji = "🏆"
    /// The emoji of status changes (the feed's status icon).
    public static let statusChangeEmoji = "📍"

    /// Every row as a timeline item, newest first (equal times by descending id).
    public static func items(
        events: [TimelineEventRow] = [],
        interactions: [TimelineInteractionRow] = [],
        offers: [TimelineOfferRow] = [],
        statusChanges: [TimelineStatusChangeRow] = [],
        schoolNames: [UUID: String]
    ) -> [TimelineItem] {
        let items = events.map { item(for: $0, schoolNames: schoolNames) }
            + interactions.map { item(for: $0, schoolNames: schoolNames) }
            + offers.map { item(for: $0, schoolNames: schoolNames) }
            + statusChanges.map { item(for: $0, schoolNames: schoolNames) }
        return items.sorted { $0.precedes($1) }
    }

    /// An event, labelled with its name and spanning `start_date` to `end_date`.
    public static func item(for row: TimelineEventRow, schoolNames: [UUID: String]) -> TimelineItem {
        TimelineItem(
            id: TimelineItemType.event.idPrefix + row.id.lowercasedString, sourceId: row.id, type: .event,
            typeLabel: DisplayLabel.humanized(row.type), emoji: eventEmoji, label: row.name,
            date: row.startDate, endDate: row.endDate,
            schoolId: row.schoolId, schoolName: schoolName(row.schoolId, schoolNames))
    }

    /// An interaction, labelled with its subject (else its type) and dated `occurred_at`, else `created_at`.
    public static func item(for row: TimelineInteractionRow, schoolNames: [UUID: String]) -> TimelineItem {
        let typeLabel = InteractionType.label(forCode: row.type)
        let subject = row.subject.flatMap { $0.isEmpty ? nil : $0 }
        return TimelineItem(
            id: TimelineItemType.interaction.idPrefix + row.id.lowercasedString, sourceId: row.id, type: .interaction,
            typeLabel: typeLabel, emoji: InteractionType.icon(forCode: row.type), label: subject ?? typeLabel,
            date: row.occurredAt ?? row.createdAt,
            schoolId: row.schoolId, schoolName: schoolName(row.schoolId, schoolNames))
    }

    /// An offer, labelled `<Offer Type> Offer` and dated `offer_date`, else `created_at`.
    public static func item(for row: TimelineOfferRow, schoolNames: [UUID: String]) -> TimelineItem {
        let typeLabel = DisplayLabel.humanized(row.offerType)
        let label = typeLabel.lowercased().hasSuffix("offer") ? typeLabel : "\(typeLabel) Offer"
        return TimelineItem(
            id: TimelineItemType.offer.idPrefix + row.id.lowercasedString, sourceId: row.id, type: .offer,
            typeLabel: typeLabel, emoji: offerEmoji, label: label, date: row.offerDate ?? row.createdAt,
            schoolId: row.schoolId, schoolName: schoolName(row.schoolId, schoolNames))
    }

    /// A status change, labelled `Interested → Offer Received`, or `Status changed to …` without a previous one.
    public static func item(for row: TimelineStatusChangeRow, schoolNames: [UUID: String]) -> TimelineItem {
        let newLabel = DisplayLabel.humanized(row.newStatus)
        let label = row.previousStatus.flatMap { $0.isEmpty ? nil : "\(DisplayLabel.humanized($0)) → \(newLabel)" }
            ?? "Status changed to \(newLabel)"
        return TimelineItem(
            id: TimelineItemType.statusChange.idPrefix + row.id.lowercasedString, sourceId: row.id,
            type: .statusChange, typeLabel: TimelineItemType.statusChange.displayName, emoji: statusChangeEmoji,
            label: label, date: row.changedAt, schoolId: row.schoolId,
            schoolName: schoolName(row.schoolId, schoolNames), details: row.notes)
    }

    /// The distinct school ids of the rows, for the one school-names query.
    public static func schoolIds(
        events: [TimelineEventRow] = [], interactions: [TimelineInteractionRow] = [],
        offers: [TimelineOfferRow] = [], statusChanges: [TimelineStatusChangeRow] = []
    ) -> [UUID] {
        let ids = Set(events.compactMap(\.schoolId) + interactions.compactMap(\.schoolId)
            + offers.compactMap(\.schoolId) + statusChanges.compactMap(\.schoolId))
        return ids.sorted { $0.sortsBefore($1) }
    }

    private static func schoolName(_ id: UUID?, _ names: [UUID: String]) -> String? {
        guard let id else { return nil }
        return names[id] ?? unknownSchoolName
    }
}
