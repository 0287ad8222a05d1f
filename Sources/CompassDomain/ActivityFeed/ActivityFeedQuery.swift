import Foundation

/// The Activity Feed's filter and page state; changing a filter returns a state on page 1.
///
/// ```swift
/// var query = ActivityFeedQuery().onPage(3)
/// query = query.filtered(by: .interaction)   // page is 1 again
/// let page = query.page(of: events, now: .now)
/// ```
///
/// Filters combine with AND: type, date range, and a case-insensitive search
/// of title and description.
public struct ActivityFeedQuery: Sendable, Hashable, Codable {
    /// Only events of this type; `nil` for all.
    public private(set) var type: ActivityEventType?
    /// Only events inside this range.
    public private(set) var dateRange: DateRange
    /// Only events whose title or description contains this text, ignoring case and surrounding spaces.
    public private(set) var searchText: String
    /// The 1-based page.
    public private(set) var page: Int

    /// Creates a state; a page below 1 is read as 1.
    public init(type: ActivityEventType? = nil, dateRange: DateRange = .all, searchText: String = "", page: Int = 1) {
        self.type = type
        self.dateRange = dateRange
        self.searchText = searchText
        self.page = max(1, page)
    }

    /// Whether any filter narrows the feed.
    public var hasActiveFilters: Bool {
        type != nil || dateRange != .all || !normalizedSearch.isEmpty
    }

    /// The state with a new type filter; back to page 1 when the filter changes.
    public func filtered(by type: ActivityEventType?) -> ActivityFeedQuery {
        guard type != self.type else { return self }
        return ActivityFeedQuery(type: type, dateRange: dateRange, searchText: searchText)
    }

    /// The state with a new date range; back to page 1 when the range changes.
    public func within(_ dateRange: DateRange) -> ActivityFeedQuery {
        guard dateRange != self.dateRange else { return self }
        return ActivityFeedQuery(type: type, dateRange: dateRange, searchText: searchText)
    }

    /// The state with a new search text; back to page 1 when the text changes.
    public func searching(_ searchText: String) -> ActivityFeedQuery {
        guard searchText != self.searchText else { return self }
        return ActivityFeedQuery(type: type, dateRange: dateRange, searchText: searchText)
    }

    /// The state with no filters, on page 1.
    public func clearingFilters() -> ActivityFeedQuery {
        ActivityFeedQuery()
    }

    /// The same filters on another page (at least 1).
    public func onPage(_ page: Int) -> ActivityFeedQuery {
        ActivityFeedQuery(type: type, dateRange: dateRange, searchText: searchText, page: page)
    }

    /// The events that pass every filter, in feed order.
    public func filter(
        _ events: [ActivityEvent], now: Date, calendar: Calendar = CompassCalendar.utc
    ) -> [ActivityEvent] {
        let cutoff = dateRange.cutoff(now: now, calendar: calendar)
        let search = normalizedSearch
        return ActivityFeed.sorted(events).filter { event in
            if let type, event.type != type { return false }
            if let cutoff, event.date < cutoff { return false }
            if !search.isEmpty {
                return event.title.lowercased().contains(search) || event.description.lowercased().contains(search)
            }
            return true
        }
    }

    /// The current page of the filtered events, with its page count.
    ///
    /// There is always at least one page; a page past the last one holds no events.
    public func page(
        of events: [ActivityEvent], now: Date, calendar: Calendar = CompassCalendar.utc
    ) -> ActivityFeedPage {
        let filtered = filter(events, now: now, calendar: calendar)
        let pageSize = ActivityFeed.pageSize
        let totalPages = max(1, (filtered.count + pageSize - 1) / pageSize)
        let slice = Array(filtered[ActivityFeed.indexes(ofPage: page, count: filtered.count)])
        return ActivityFeedPage(events: slice, page: page, totalPages: totalPages, total: filtered.count)
    }

    /// Whether the search filter is on (its text is not empty; spaces are searched for, as the spec filters).
    var searches: Bool { !normalizedSearch.isEmpty }

    private var normalizedSearch: String {
        searchText.lowercased()
    }
}
