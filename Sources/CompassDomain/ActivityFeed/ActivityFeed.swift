import Foundation
import UUIDText

/// Builds the Activity Feed from the three feed queries' rows (DESIGN §4).
///
/// ```swift
/// let ids = ActivityFeed.schoolIdsToHydrate(interactions: i, statusChanges: s)
/// let names = try await schools.names(ids)              // SELECT id, name FROM schools WHERE id = ANY($1)
/// let events = ActivityFeed.merge(interactions: i, statusChanges: s, documents: d,
///                                 schoolNames: names, now: .now)
/// let page = ActivityFeedQuery().page(of: events, now: .now)
/// ```
public enum ActivityFeed {
    /// Events per page of the full feed.
    public static let pageSize = 20
    /// Events in the dashboard widget.
    public static let widgetSize = 10
    /// Rows each feed query fetches per source.
    public static let rowsPerSource = 50
    /// The longest `description`, in characters.
    public static let descriptionLength = 50
    /// The name shown when an event's school is missing or was not found.
    public static let unknownSchoolName = "Unknown School"
    /// The emoji of status change events.
    public static let statusChangeIcon = "📍"
    /// The emoji of document events.
    public static let documentIcon = "📄"

    /// Merges the three sources into one feed, newest first, equal times by descending id.
    ///
    /// `schoolNames` maps school ids to names (the hydration query); `now`
    /// fixes the relative times; `calendar` gives the time zone of the
    /// timestamps' offset and of `Jan 15`-style dates.
    public static func merge(
        interactions: [FeedInteractionRow],
        statusChanges: [FeedStatusChangeRow],
        documents: [FeedDocumentRow],
        schoolNames: [UUID: String],
        now: Date,
        calendar: Calendar = CompassCalendar.utc
    ) -> [ActivityEvent] {
        unnamedEvents(interactions: interactions, statusChanges: statusChanges, documents: documents, now: now, calendar: calendar)
            .naming(schoolNames)
    }

    /// Every event of the feed with all that its row decides alone: ``merge(interactions:statusChanges:documents:schoolNames:now:calendar:)``
    /// but for the school names (titles and entity names), which ``UnnamedFeedEvents/naming(_:)``
    /// fills in. A feed builds these while its hydration query is on the way.
    public static func unnamedEvents(
        interactions: [FeedInteractionRow],
        statusChanges: [FeedStatusChangeRow],
        documents: [FeedDocumentRow],
        now: Date,
        calendar: Calendar = CompassCalendar.utc
    ) -> UnnamedFeedEvents {
        // Built in place: an event holds a dozen strings, and each copy retains them all.
        var events: [ActivityEvent] = []
        events.reserveCapacity(interactions.count + statusChanges.count + documents.count)
        for row in interactions { events.append(event(for: row, school: nil, now: now, calendar: calendar)) }
        for row in statusChanges { events.append(event(for: row, school: nil, now: now, calendar: calendar)) }
        for row in documents { events.append(event(for: row, now: now, calendar: calendar)) }
        return UnnamedFeedEvents(events: events, interactions: interactions, statusChanges: statusChanges)
    }

    /// The distinct non-null school ids the hydration query must look up, in a stable order.
    public static func schoolIdsToHydrate(
        interactions: [FeedInteractionRow], statusChanges: [FeedStatusChangeRow]
    ) -> [UUID] {
        let ids = Set(interactions.compactMap(\.schoolId) + statusChanges.compactMap(\.schoolId))
        return ids.sorted { $0.sortsBefore($1) }
    }

    /// The event for one interaction: `<Type> with <School>`, timed by `occurred_at`, else `created_at`.
    public static func event(
        for row: FeedInteractionRow, schoolNames: [UUID: String], now: Date,
        calendar: Calendar = CompassCalendar.utc
    ) -> ActivityEvent {
        event(for: row, school: schoolName(row.schoolId, in: schoolNames), now: now, calendar: calendar)
    }

    /// The interaction's event; with `school` nil, without its title and entity name (``UnnamedFeedEvents``).
    static func event(for row: FeedInteractionRow, school: String?, now: Date, calendar: Calendar) -> ActivityEvent {
        let text = row.content.flatMap { $0.isEmpty ? nil : $0 } ?? row.subject.flatMap { $0.isEmpty ? nil : $0 } ?? ""
        let date = row.occurredAt ?? row.createdAt
        let type = InteractionType(rawValue: row.type)
        return ActivityEvent(
            id: row.id.lowercasedText(prefixedBy: ActivityEventType.interaction.idPrefix),
            type: .interaction,
            date: date,
            title: school.map { title(for: row, type: type, school: $0) } ?? "",
            description: truncatedDescription(text),
            icon: type?.icon ?? InteractionType.icon(forCode: row.type),
            entityType: "school",
            entityId: row.schoolId?.lowercasedString,
            entityName: school,
            metadata: relativeTimeMetadata(date, now: now, calendar: calendar),
            isClickable: true,
            clickUrl: row.id.lowercasedText(prefixedBy: "/interactions/"),
            timeZone: calendar.timeZone
        )
    }

    /// `<Type> with <School>`; `type` is the row's code parsed, if it is a known one.
    static func title(for row: FeedInteractionRow, type: InteractionType?, school: String) -> String {
        "\(type?.displayName ?? InteractionType.label(forCode: row.type)) with \(school)"
    }

    /// The event for one status change: `<School> status changed to <Status Label>`.
    ///
    /// Clickable when the row names a school (it opens `/schools/<school_id>`).
    public static func event(
        for row: FeedStatusChangeRow, schoolNames: [UUID: String], now: Date,
        calendar: Calendar = CompassCalendar.utc
    ) -> ActivityEvent {
        event(for: row, school: schoolName(row.schoolId, in: schoolNames), now: now, calendar: calendar)
    }

    /// The status change's event; with `school` nil, without its title and entity name (``UnnamedFeedEvents``).
    static func event(for row: FeedStatusChangeRow, school: String?, now: Date, calendar: Calendar) -> ActivityEvent {
        let schoolId = row.schoolId?.lowercasedString
        return ActivityEvent(
            id: row.id.lowercasedText(prefixedBy: ActivityEventType.schoolStatusChange.idPrefix),
            type: .schoolStatusChange,
            date: row.changedAt,
            title: school.map { title(for: row, school: $0) } ?? "",
            description: truncatedDescription(row.notes ?? ""),
            icon: statusChangeIcon,
            entityType: "school",
            entityId: schoolId,
            entityName: school,
            metadata: relativeTimeMetadata(row.changedAt, now: now, calendar: calendar),
            isClickable: schoolId != nil,
            clickUrl: row.schoolId?.lowercasedText(prefixedBy: "/schools/"),
            timeZone: calendar.timeZone
        )
    }

    /// `<School> status changed to <Status Label>`.
    static func title(for row: FeedStatusChangeRow, school: String) -> String {
        "\(school) status changed to \(DisplayLabel.humanized(row.newStatus))"
    }

    /// The event for one document: `Uploaded <title>`, described by its type, not clickable.
    public static func event(
        for row: FeedDocumentRow, now: Date, calendar: Calendar = CompassCalendar.utc
    ) -> ActivityEvent {
        return ActivityEvent(
            id: row.id.lowercasedText(prefixedBy: ActivityEventType.documentUpload.idPrefix),
            type: .documentUpload,
            date: row.createdAt,
            title: "Uploaded \(row.title)",
            description: row.type ?? "",
            icon: documentIcon,
            entityType: "document",
            entityId: row.id.lowercasedString,
            entityName: row.title,
            metadata: relativeTimeMetadata(row.createdAt, now: now, calendar: calendar),
            isClickable: false,
            clickUrl: nil,
            timeZone: calendar.timeZone
        )
    }

    /// `events` in feed order: newest first, equal times by descending id.
    public static func sorted(_ events: [ActivityEvent]) -> [ActivityEvent] {
        events.sorted { $0.precedes($1) }
    }

    /// The dashboard widget: the `widgetSize` most recent events.
    public static func widget(_ events: [ActivityEvent]) -> [ActivityEvent] {
        Array(sorted(events).prefix(widgetSize))
    }

    /// `event` added to a feed already in order (a realtime INSERT); an event with the same id is replaced.
    public static func inserting(_ event: ActivityEvent, into events: [ActivityEvent]) -> [ActivityEvent] {
        var result = events.filter { $0.id != event.id }
        let index = result.firstIndex { event.precedes($0) } ?? result.endIndex
        result.insert(event, at: index)
        return result
    }

    /// The first 50 characters (grapheme clusters) of `text`; nothing is added when it is cut.
    public static func truncatedDescription(_ text: String) -> String {
        // A character takes at least one byte: text of at most 50 bytes is kept whole without walking its graphemes.
        guard text.utf8.count > descriptionLength else { return text }
        return asciiPrefix(text, descriptionLength) ?? String(text.prefix(descriptionLength))
    }

    /// The first `length` characters of `text` as its first `length` bytes, when that is certain
    /// without walking graphemes: the first `length + 1` bytes are ASCII and none is a carriage
    /// return. Two ASCII bytes other than CR LF are always two characters, and a combining mark
    /// after the last kept byte would show as a non-ASCII byte at `length`. Nil otherwise.
    static func asciiPrefix(_ text: String, _ length: Int) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard bytes.count > length,
                !bytes[...length].contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "\r") })
            else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[..<length]), as: UTF8.self)
        }
    }

    static func schoolName(_ id: UUID?, in names: [UUID: String]) -> String {
        id.flatMap { names[$0] } ?? unknownSchoolName
    }

    private static func relativeTimeMetadata(_ date: Date, now: Date, calendar: Calendar) -> [String: String] {
        [ActivityEvent.relativeTimeKey: RelativeTime.feed(date, now: now, calendar: calendar)]
    }
}
