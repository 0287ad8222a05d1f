import Foundation
import Testing
@testable import CompassDomain

@Suite("Activity Feed: filters and pages")
struct ActivityFeedQueryTests {
    func event(_ n: Int, _ type: ActivityEventType, title: String, description: String = "", at date: Date) -> ActivityEvent {
        ActivityEvent(
            id: "\(type.idPrefix)\(n)", type: type, date: date, title: title, description: description, icon: "",
            entityType: nil, entityId: nil, entityName: nil, metadata: nil, isClickable: false, clickUrl: nil)
    }

    var sample: [ActivityEvent] {
        [
            event(1, .interaction, title: "Email with Arizona State", description: "Camp schedule", at: Fixture.daysAgo(1)),
            event(2, .interaction, title: "Phone Call with Stanford", description: "Talked about visit", at: Fixture.daysAgo(20)),
            event(3, .schoolStatusChange, title: "Stanford status changed to Offer Received", at: Fixture.daysAgo(45)),
            event(4, .documentUpload, title: "Uploaded Transcript", description: "transcript", at: Fixture.daysAgo(100)),
        ]
    }

    func ids(_ query: ActivityFeedQuery) -> [String] {
        query.filter(sample, now: Fixture.now).map(\.id)
    }

    @Test("the type filter keeps one source")
    func typeFilter() {
        #expect(ids(ActivityFeedQuery(type: .interaction)) == ["interaction-1", "interaction-2"])
        #expect(ids(ActivityFeedQuery(type: .documentUpload)) == ["doc-4"])
        #expect(ids(ActivityFeedQuery()).count == 4)
    }

    @Test("date ranges keep the last 7, 30 and 90 days", arguments: [
        (DateRange.week, 1), (.month, 2), (.quarter, 3), (.all, 4),
    ])
    func dateRanges(range: DateRange, count: Int) {
        #expect(ids(ActivityFeedQuery(dateRange: range)).count == count)
    }

    @Test("a date range's cut-off is inclusive")
    func cutoffInclusive() {
        let edge = [event(1, .interaction, title: "edge", at: Fixture.daysAgo(7)),
                    event(2, .interaction, title: "past", at: Fixture.daysAgo(7).addingTimeInterval(-1))]
        #expect(ActivityFeedQuery(dateRange: .week).filter(edge, now: Fixture.now).map(\.id) == ["interaction-1"])
    }

    @Test("search matches title or description, ignoring case; spaces are part of the text, as in the spec")
    func search() {
        #expect(ids(ActivityFeedQuery(searchText: "STANFORD")) == ["interaction-2", "status-3"])
        #expect(ids(ActivityFeedQuery(searchText: "camp sched")) == ["interaction-1"])
        #expect(ids(ActivityFeedQuery(searchText: "transcript")) == ["doc-4"])
        #expect(ids(ActivityFeedQuery(searchText: "  transcript ")).isEmpty)
        #expect(ids(ActivityFeedQuery(searchText: "nothing like this")).isEmpty)
    }

    @Test("filters combine with AND")
    func combined() {
        #expect(ids(ActivityFeedQuery(type: .interaction, dateRange: .week, searchText: "stanford")).isEmpty)
        #expect(ids(ActivityFeedQuery(type: .interaction, dateRange: .month, searchText: "stanford")) == ["interaction-2"])
        #expect(ids(ActivityFeedQuery(type: .schoolStatusChange, dateRange: .month, searchText: "stanford")).isEmpty)
    }

    @Test("pages hold 20 events and count the filtered events")
    func pagination() {
        let many = (1...45).map { event($0, .interaction, title: "e\($0)", at: Fixture.ago(Double($0))) }
        let first = ActivityFeedQuery().page(of: many, now: Fixture.now)
        #expect(first.events.count == 20)
        #expect(first.totalPages == 3)
        #expect(first.total == 45)
        #expect(!first.hasPrevious && first.hasNext && first.showsPagination)
        #expect(first.events.first?.id == "interaction-1")
        let last = ActivityFeedQuery(page: 3).page(of: many, now: Fixture.now)
        #expect(last.events.map(\.id) == (41...45).map { "interaction-\($0)" })
        #expect(last.hasPrevious && !last.hasNext)
        let filtered = ActivityFeedQuery(searchText: "e1").page(of: many, now: Fixture.now)
        #expect(filtered.total == 11)
        #expect(filtered.totalPages == 1)
    }

    @Test("nothing found is still one page")
    func emptyIsOnePage() {
        let page = ActivityFeedQuery(searchText: "zzz").page(of: sample, now: Fixture.now)
        #expect(page.events.isEmpty)
        #expect(page.total == 0)
        #expect(page.totalPages == 1)
        #expect(page.page == 1)
        #expect(!page.showsPagination)
        #expect(ActivityFeedQuery().page(of: [], now: Fixture.now).totalPages == 1)
    }

    @Test("exactly 20 events is one page, 21 is two")
    func pageBoundary() {
        let twenty = (1...20).map { event($0, .interaction, title: "e", at: Fixture.now) }
        #expect(ActivityFeedQuery().page(of: twenty, now: Fixture.now).totalPages == 1)
        let more = twenty + [event(21, .interaction, title: "e", at: Fixture.now)]
        #expect(ActivityFeedQuery().page(of: more, now: Fixture.now).totalPages == 2)
    }

    @Test("a page past the last one is empty, and pages below 1 read as 1")
    func outOfRangePages() {
        let page = ActivityFeedQuery(page: 9).page(of: sample, now: Fixture.now)
        #expect(page.events.isEmpty && page.page == 9 && page.totalPages == 1)
        #expect(ActivityFeedQuery().onPage(0).page == 1)
        #expect(ActivityFeedQuery(page: -3).page == 1)
    }

    @Test("changing any filter resets to page 1; setting the same value keeps the page")
    func filterChangeResetsPage() {
        let onThree = ActivityFeedQuery().onPage(3)
        #expect(onThree.filtered(by: .interaction).page == 1)
        #expect(onThree.within(.month).page == 1)
        #expect(onThree.searching("asu").page == 1)
        #expect(onThree.filtered(by: nil).page == 3)
        #expect(onThree.within(.all).page == 3)
        #expect(onThree.searching("").page == 3)
        let filtered = onThree.filtered(by: .documentUpload).within(.week).searching("x").onPage(2)
        #expect(filtered.type == .documentUpload && filtered.dateRange == .week && filtered.searchText == "x")
        #expect(filtered.hasActiveFilters)
        #expect(filtered.clearingFilters() == ActivityFeedQuery())
        #expect(!ActivityFeedQuery(searchText: "").hasActiveFilters)
        #expect(ActivityFeedQuery(searchText: "   ").hasActiveFilters)  // the spec: `!searchQuery.isEmpty`
    }

    @Test("date ranges and types keep the spec's raw values and labels")
    func rawValues() {
        #expect(DateRange.allCases.map(\.rawValue).sorted() == ["all", "month", "quarter", "week"])
        #expect(DateRange.week.label == "Last 7 Days" && DateRange.all.daysAgo == nil)
        #expect(ActivityEventType.schoolStatusChange.rawValue == "school_status_change")
        #expect(ActivityEventType.documentUpload.label == "Documents")
    }
}
