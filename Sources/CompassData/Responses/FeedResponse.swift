import CompassDomain
import Foundation

/// What a feed read asks for: `compass feed`'s flags, `GET /api/v1/feed`'s query parameters.
public struct FeedRequest: Sendable, Hashable {
    /// Only this event type (nil: all).
    public var type: ActivityEventType?
    /// The date range.
    public var range: DateRange
    /// Case-insensitive search in titles and descriptions.
    public var search: String
    /// The page, from 1.
    public var page: Int
    /// Only the dashboard widget (the 10 most recent matching events).
    public var widget: Bool

    /// Creates a request; callers validate `page` (≥ 1, and 1 with `widget`) in their own words.
    public init(
        type: ActivityEventType? = nil, range: DateRange = .all, search: String = "", page: Int = 1, widget: Bool = false
    ) {
        self.type = type
        self.range = range
        self.search = search
        self.page = page
        self.widget = widget
    }
}

/// `{"events": [...], "page": N, "totalPages": N, "total": N}`, plus `warnings` when a source failed.
public struct FeedResponse: Sendable, Encodable {
    /// The page of events.
    public var page: ActivityFeedPage
    /// One banner text per source that failed to load.
    public var warnings: [String]

    /// The page `request` selects from a loaded feed.
    public init(request: FeedRequest, snapshot: ActivityFeedSnapshot, now: Date) {
        let query = ActivityFeedQuery(type: request.type, dateRange: request.range, searchText: request.search, page: request.page)
        if request.widget {
            let events = ActivityFeed.widget(query.filter(snapshot.events, now: now))
            page = ActivityFeedPage(events: events, page: 1, totalPages: 1, total: events.count)
        } else {
            page = query.page(of: snapshot.events, now: now)
        }
        warnings = snapshot.warnings
    }

    /// A page and the warnings of the sources that failed.
    init(page: ActivityFeedPage, warnings: [String]) {
        self.page = page
        self.warnings = warnings
    }

    private enum CodingKeys: String, CodingKey { case warnings }

    /// The page's own keys, then `warnings` only when there are some.
    public func encode(to encoder: any Encoder) throws {
        try page.encode(to: encoder)
        if !warnings.isEmpty {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(warnings, forKey: .warnings)
        }
    }
}

extension FeedResponse: CompassJSONWritable {
    /// The page's keys, then `warnings` (sorted after them) only when there are some.
    public func write(to json: inout PrettyJSONWriter) {
        json.object { json in
            page.writeMembers(to: &json)
            if !warnings.isEmpty {
                json.key("warnings")
                json.array { json in
                    for warning in warnings {
                        json.element()
                        json.string(warning)
                    }
                }
            }
        }
    }
}

extension FeedRepository {
    /// Loads the feed (two round trips) and selects the requested page.
    ///
    /// A page of the full feed builds only its own events (``ActivityFeed/page(_:interactions:statusChanges:documents:schoolNames:now:calendar:)``);
    /// the widget takes the whole merged feed.
    public func response(for request: FeedRequest, now: Date = Date()) async throws -> FeedResponse {
        guard !request.widget else { return FeedResponse(request: request, snapshot: try await load(now: now), now: now) }
        let sources = try await loadSourceRows()
        let query = ActivityFeedQuery(type: request.type, dateRange: request.range, searchText: request.search, page: request.page)
        // The page's events are built while round trip 2 (their schools' names) travels.
        let (names, unnamed) = try await schoolNames(sources.schoolIdsToHydrate) {
            ActivityFeed.unnamedPage(
                query, interactions: sources.interactions, statusChanges: sources.statusChanges, documents: sources.documents, now: now)
        }
        return FeedResponse(page: unnamed.naming(names), warnings: ActivityFeedSnapshot(events: [], failures: sources.failures).warnings)
    }
}
