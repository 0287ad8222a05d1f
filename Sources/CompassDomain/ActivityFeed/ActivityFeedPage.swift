/// One page of the Activity Feed: `{"events": […], "page": N, "totalPages": N, "total": N}`.
public struct ActivityFeedPage: Sendable, Hashable, Codable {
    /// The events on this page, in feed order (at most `ActivityFeed.pageSize`).
    public var events: [ActivityEvent]
    /// The 1-based page number.
    public var page: Int
    /// The number of pages; at least 1, even when nothing matched.
    public var totalPages: Int
    /// The number of events that passed the filters, on all pages.
    public var total: Int

    /// Creates a page.
    public init(events: [ActivityEvent], page: Int, totalPages: Int, total: Int) {
        self.events = events
        self.page = page
        self.totalPages = totalPages
        self.total = total
    }

    /// Whether a "Previous" button is enabled.
    public var hasPrevious: Bool { page > 1 }

    /// Whether a "Next" button is enabled.
    public var hasNext: Bool { page < totalPages }

    /// Whether the pagination controls are shown (more than one page).
    public var showsPagination: Bool { totalPages > 1 }
}
