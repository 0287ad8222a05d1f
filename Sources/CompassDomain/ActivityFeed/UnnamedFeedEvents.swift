import Foundation

/// A feed's events before the hydration query has named their schools.
///
/// Everything but the titles and entity names of interactions and status changes comes from the
/// rows alone (ids, timestamps, descriptions, relative times, links), so a feed builds it while
/// the query for the names is on its way, and ``naming(_:)`` finishes the events once they
/// arrive: the same events ``ActivityFeed/merge(interactions:statusChanges:documents:schoolNames:now:calendar:)`` builds.
public struct UnnamedFeedEvents: Sendable {
    /// The interactions' events, then the status changes', then the documents', in the rows' order.
    var events: [ActivityEvent]
    let interactions: [FeedInteractionRow]
    let statusChanges: [FeedStatusChangeRow]

    /// The finished feed: each school named from `schoolNames` (`Unknown School` when missing),
    /// newest first, equal times by descending id.
    public consuming func naming(_ schoolNames: [UUID: String]) -> [ActivityEvent] {
        var events = self.events
        self.events = []  // `events` is now the only reference: named in place, not copied
        for (index, row) in interactions.enumerated() {
            let school = ActivityFeed.schoolName(row.schoolId, in: schoolNames)
            events[index].title = ActivityFeed.title(for: row, type: InteractionType(rawValue: row.type), school: school)
            events[index].entityName = school
        }
        for (offset, row) in statusChanges.enumerated() {
            let school = ActivityFeed.schoolName(row.schoolId, in: schoolNames)
            let index = interactions.count + offset
            events[index].title = ActivityFeed.title(for: row, school: school)
            events[index].entityName = school
        }
        events.sort { $0.precedes($1) }
        return events
    }
}

/// One page of the feed before the hydration query has named its schools (``ActivityFeed/unnamedPage(_:interactions:statusChanges:documents:now:calendar:)``).
public struct UnnamedFeedPage: Sendable {
    enum Pending: Sendable {
        case page(UnnamedFeedEvents, page: Int, totalPages: Int, total: Int)
        case search(
            ActivityFeedQuery, interactions: [FeedInteractionRow], statusChanges: [FeedStatusChangeRow], documents: [FeedDocumentRow],
            now: Date, calendar: Calendar)
    }

    let pending: Pending

    init(_ pending: Pending) {
        self.pending = pending
    }

    /// The finished page, each school named from `schoolNames`.
    public func naming(_ schoolNames: [UUID: String]) -> ActivityFeedPage {
        switch pending {
        case .page(let events, let page, let totalPages, let total):
            return ActivityFeedPage(events: events.naming(schoolNames), page: page, totalPages: totalPages, total: total)
        case .search(let query, let interactions, let statusChanges, let documents, let now, let calendar):
            let events = ActivityFeed.merge(
                interactions: interactions, statusChanges: statusChanges, documents: documents, schoolNames: schoolNames,
                now: now, calendar: calendar)
            return query.page(of: events, now: now, calendar: calendar)
        }
    }
}
