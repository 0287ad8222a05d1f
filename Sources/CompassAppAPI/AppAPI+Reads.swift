import CompassData
import CompassDomain
import Foundation
import Hummingbird

// The one-call reads: the same request values and response types as `compass feed`,
// `timeline`, `interactions` and `family-activity`, so the JSON is the CLI's `--json`.
extension AppAPI {
    /// `GET /api/v1/feed?type&range&search&page&widget`: two database round trips.
    func feed(_ call: AppCall) async throws -> Response {
        let (request, user) = (call.request, call.user)
        let query = try AppQuery(request, allowed: ["type", "range", "search", "page", "widget"])
        let type = try query.value(
            "type", expected: AppQuery.oneOf(ActivityEventType.allCases.map(\.rawValue)), ActivityEventType.init(filterName:))
        let page = try query.integer("page", in: 1..., expected: "a page number, 1 or more") ?? 1
        let widget = try query.flag("widget")
        if widget && page != 1 { throw AppAPIError.invalidParameter("widget shows one page; drop page \(page)") }
        let feedRequest = FeedRequest(
            type: type, range: try query.enumeration("range", DateRange.self) ?? .all, search: query.string("search") ?? "",
            page: page, widget: widget)
        let now = now()
        return AppReply.json(try await withScope(of: user) { try await FeedRepository(scope: $0).response(for: feedRequest, now: now) })
    }

    /// `GET /api/v1/timeline?range&school&hide`.
    func timeline(_ call: AppCall) async throws -> Response {
        let (request, user) = (call.request, call.user)
        let query = try AppQuery(request, allowed: ["range", "school", "hide"])
        let hidden = try query.value(
            "hide", expected: "a comma-separated list of " + AppQuery.oneOf(TimelineItemType.allCases.map(\.rawValue)),
            TimelineItemType.set(fromList:))
        let timelineRequest = TimelineRequest(
            range: try query.enumeration("range", TimelineViewRange.self) ?? .default, school: try query.uuid("school"),
            hiddenTypes: hidden ?? [])
        let today = now()
        return AppReply.json(
            try await withScope(of: user) { try await TimelineRepository(scope: $0).response(for: timelineRequest, today: today) })
    }

    /// `GET /api/v1/interactions?parent&family&type&direction&sentiment&days&logged-by&search`.
    func interactions(_ call: AppCall) async throws -> Response {
        let (request, user) = (call.request, call.user)
        let query = try AppQuery(
            request, allowed: ["parent", "family", "type", "direction", "sentiment", "days", "logged-by", "search"])
        let parent = try query.flag("parent")
        let family = try query.uuid("family")
        let loggedBy = try query.uuid("logged-by")
        if parent && family == nil { throw AppAPIError.invalidParameter("parent needs family=<family id>") }
        if !parent, family != nil { throw AppAPIError.invalidParameter("family is for the parent view: add parent=true") }
        if !parent, let loggedBy {
            throw AppAPIError.invalidParameter(
                "logged-by \(loggedBy.lowercasedString) is a parent-view filter: add parent=true&family=<family id>")
        }
        let filters = InteractionFilters(
            searchText: query.string("search") ?? "", type: try query.enumeration("type", InteractionType.self),
            direction: try query.enumeration("direction", InteractionDirection.self),
            sentiment: try query.enumeration("sentiment", InteractionSentiment.self),
            timePeriod: try query.value(
                "days", expected: AppQuery.oneOf(InteractionTimePeriod.allCases.map { String($0.rawValue) })
            ) { Int($0).flatMap(InteractionTimePeriod.init(rawValue:)) },
            loggedBy: loggedBy)
        let audience: InteractionsRepository.Audience = family.map { .family($0) } ?? .athlete
        let now = now()
        let records = try await withScope(of: user) { try await InteractionsRepository(scope: $0).load(audience) }
        return AppReply.json(records.listing(filters: filters, now: now))
    }

    /// `GET /api/v1/family-activity?limit&cursor&family`: one keyset page with `nextCursor`.
    func familyActivity(_ call: AppCall) async throws -> Response {
        let (request, user) = (call.request, call.user)
        let query = try AppQuery(request, allowed: ["limit", "cursor", "family"])
        let limit = try query.integer("limit", in: 1...100, expected: "a whole number from 1 to 100")
            ?? ParentActivityPage.defaultLimit
        var cursor: ParentActivityCursor?
        if let text = query.string("cursor") {
            do {
                cursor = try ParentActivityCursor(encoded: text)
            } catch {
                throw AppAPIError.invalidParameter("invalid cursor '\(text)': \(error.description)")
            }
        }
        let family = try query.uuid("family")
        let result = try await withScope(of: user) { [cursor] in
            try await FamilyActivityRepository(scope: $0).page(familyId: family, limit: limit, after: cursor)
        }
        return AppReply.json(result.page)
    }
}
