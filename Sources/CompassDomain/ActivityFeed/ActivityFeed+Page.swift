import Foundation
import UUIDText

extension ActivityFeed {
    /// One page of the merged feed, building only the events on it.
    ///
    /// The same page as `query.page(of: merge(…), now:)`: ordering and the type and date filters
    /// need only each event's millisecond date, id and type, so titles, descriptions, timestamps
    /// and relative times are built for the page's events alone. A query that searches titles
    /// and descriptions builds every event, as `merge` does.
    public static func page(
        _ query: ActivityFeedQuery,
        interactions: [FeedInteractionRow],
        statusChanges: [FeedStatusChangeRow],
        documents: [FeedDocumentRow],
        schoolNames: [UUID: String],
        now: Date,
        calendar: Calendar = CompassCalendar.utc
    ) -> ActivityFeedPage {
        unnamedPage(query, interactions: interactions, statusChanges: statusChanges, documents: documents, now: now, calendar: calendar)
            .naming(schoolNames)
    }

    /// ``page(_:interactions:statusChanges:documents:schoolNames:now:calendar:)`` up to the school
    /// names: the page's events built from their rows, to be named by ``UnnamedFeedPage/naming(_:)``
    /// once the hydration query is back. A search matches titles, which name schools, so it
    /// waits for the names whole.
    public static func unnamedPage(
        _ query: ActivityFeedQuery,
        interactions: [FeedInteractionRow],
        statusChanges: [FeedStatusChangeRow],
        documents: [FeedDocumentRow],
        now: Date,
        calendar: Calendar = CompassCalendar.utc
    ) -> UnnamedFeedPage {
        guard !query.searches else {
            return UnnamedFeedPage(.search(
                query, interactions: interactions, statusChanges: statusChanges, documents: documents, now: now, calendar: calendar))
        }
        var entries: [PendingEvent] = []
        entries.reserveCapacity(interactions.count + statusChanges.count + documents.count)
        for (index, row) in interactions.enumerated() {
            entries.append(PendingEvent(.interaction, row.id, row.occurredAt ?? row.createdAt, .interaction(index)))
        }
        for (index, row) in statusChanges.enumerated() {
            entries.append(PendingEvent(.schoolStatusChange, row.id, row.changedAt, .statusChange(index)))
        }
        for (index, row) in documents.enumerated() {
            entries.append(PendingEvent(.documentUpload, row.id, row.createdAt, .document(index)))
        }
        let cutoff = query.dateRange.cutoff(now: now, calendar: calendar)
        let kept = entries
            .filter { entry in
                if let type = query.type, entry.type != type { return false }
                if let cutoff, entry.date < cutoff { return false }
                return true
            }
            .sorted { $0.date != $1.date ? $0.date > $1.date : $0.id > $1.id }
        let totalPages = max(1, (kept.count + pageSize - 1) / pageSize)
        let onPage = kept[indexes(ofPage: query.page, count: kept.count)]
        // The page's rows by source; naming puts their events back in feed order.
        var (pageInteractions, pageStatusChanges, pageDocuments) = ([FeedInteractionRow](), [FeedStatusChangeRow](), [FeedDocumentRow]())
        for entry in onPage {
            switch entry.source {
            case .interaction(let index): pageInteractions.append(interactions[index])
            case .statusChange(let index): pageStatusChanges.append(statusChanges[index])
            case .document(let index): pageDocuments.append(documents[index])
            }
        }
        let events = unnamedEvents(
            interactions: pageInteractions, statusChanges: pageStatusChanges, documents: pageDocuments, now: now, calendar: calendar)
        return UnnamedFeedPage(.page(events, page: query.page, totalPages: totalPages, total: kept.count))
    }

    /// The positions of page `page` (1-based) among `count` events in feed order: none past the
    /// last page, however large the page number (a request's `page` can be any integer).
    static func indexes(ofPage page: Int, count: Int) -> Range<Int> {
        let (start, overflow) = max(0, page - 1).multipliedReportingOverflow(by: pageSize)
        guard !overflow, start < count else { return count..<count }
        return start..<min(start + pageSize, count)
    }

    /// What ordering and the type and date filters need of an event, and where its row is.
    private struct PendingEvent {
        enum Source { case interaction(Int), statusChange(Int), document(Int) }
        var type: ActivityEventType
        var rowId: UUID
        /// The event's date as `ActivityEvent` keeps it: rounded to milliseconds.
        var date: Date
        var source: Source

        init(_ type: ActivityEventType, _ rowId: UUID, _ date: Date, _ source: Source) {
            self.type = type
            self.rowId = rowId
            self.date = CompassTimestamp.roundedToMilliseconds(date)
            self.source = source
        }

        /// The event's id, as `ActivityEvent.id`: ties in date order go by it. Spelled out only
        /// for a tie, not for every row.
        var id: String { rowId.lowercasedText(prefixedBy: type.idPrefix) }
    }
}
