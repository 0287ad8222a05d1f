import Foundation
import Testing
@testable import CompassDomain

@Suite("Interactions: model, names, filters, analytics")
struct InteractionTests {
    let family = Fixture.uuid(700)
    let athlete = Fixture.uuid(701)
    let parent = Fixture.uuid(702)
    let stanford = Fixture.uuid(900)
    let coach = Fixture.uuid(950)

    func interaction(
        _ n: Int, _ type: InteractionType = .email, _ direction: InteractionDirection = .outbound,
        subject: String? = nil, content: String? = nil, sentiment: InteractionSentiment? = nil,
        occurredAt: Date? = nil, createdAt: Date = Fixture.daysAgo(1), loggedBy: UUID? = nil,
        school: UUID? = nil, coach: UUID? = nil
    ) -> Interaction {
        Interaction(id: Fixture.uuid(n), familyUnitId: family, userId: athlete, loggedBy: loggedBy ?? athlete,
                    schoolId: school, coachId: coach, type: type, direction: direction, subject: subject,
                    content: content, sentiment: sentiment, occurredAt: occurredAt, createdAt: createdAt)
    }

    var sample: [Interaction] {
        [
            interaction(1, .email, .outbound, subject: "Camp invite", content: "Thanks for the INVITE",
                        sentiment: .positive, occurredAt: Fixture.daysAgo(2)),
            interaction(2, .phoneCall, .inbound, subject: "Coach called", sentiment: .veryPositive,
                        occurredAt: Fixture.daysAgo(10)),
            interaction(3, .email, .inbound, content: "Follow-up on camp", sentiment: .neutral,
                        occurredAt: nil, createdAt: Fixture.daysAgo(20), loggedBy: parent),
            interaction(4, .directMessage, .outbound, subject: "DM", occurredAt: Fixture.daysAgo(60)),
            interaction(5, .showcase, .outbound, subject: "Showcase", sentiment: .negative, occurredAt: Fixture.daysAgo(100)),
        ]
    }

    func ids(_ filters: InteractionFilters) -> [Int] {
        filters.apply(to: sample, now: Fixture.now).map { Int($0.id.uuidString.suffix(12))! }
    }

    @Test("the enums keep the SQL's values and the spec's labels")
    func enums() {
        #expect(InteractionType.allCases.map(\.rawValue) == [
            "email", "phone_call", "text", "in_person_visit", "virtual_meeting", "camp", "showcase", "tweet", "dm",
        ])
        #expect(InteractionType.directMessage.displayName == "Direct Message")
        #expect(InteractionType.inPersonVisit.displayName == "In-Person Visit")
        #expect(InteractionDirection.allCases.map(\.rawValue) == ["outbound", "inbound"])
        #expect(InteractionSentiment.veryPositive.rawValue == "very_positive")
        #expect(InteractionSentiment.veryPositive.displayName == "Very Positive")
        #expect(InteractionTimePeriod.allCases.map(\.days) == [7, 14, 30, 90])
        #expect(InteractionTimePeriod.last14Days.displayName == "Last 14 days")
    }

    @Test("the display date is occurred_at, else created_at")
    func displayDate() {
        #expect(interaction(1, occurredAt: Fixture.daysAgo(3), createdAt: Fixture.daysAgo(1)).displayDate == Fixture.daysAgo(3))
        #expect(interaction(1, occurredAt: nil, createdAt: Fixture.daysAgo(1)).displayDate == Fixture.daysAgo(1))
    }

    @Test("a missing subject shows the type's name; attachments are counted")
    func cardFields() {
        #expect(interaction(1, .phoneCall).displaySubject == "Phone Call")
        #expect(interaction(1, subject: "").displaySubject == "Email")
        #expect(interaction(1, subject: "Hello").displaySubject == "Hello")
        var withFiles = interaction(1)
        #expect(!withFiles.hasAttachments)
        withFiles.attachments = ["a.pdf", "b.png"]
        #expect(withFiles.hasAttachments && withFiles.attachmentCount == 2)
    }

    @Test("school and coach lines: omitted without an id, 'Unknown …' when not found")
    func names() {
        let lookup = InteractionNameLookup(
            schoolNames: [stanford: "Stanford"],
            coachNames: [coach: InteractionNameLookup.coachName(firstName: " Pat ", lastName: "Lee")])
        let known = interaction(1, school: stanford, coach: coach)
        #expect(lookup.schoolName(for: known) == "Stanford")
        #expect(lookup.coachName(for: known) == "Pat Lee")
        let deleted = interaction(2, school: Fixture.uuid(901), coach: Fixture.uuid(951))
        #expect(lookup.schoolName(for: deleted) == "Unknown School")
        #expect(lookup.coachName(for: deleted) == "Unknown Coach")
        let none = interaction(3)
        #expect(lookup.schoolName(for: none) == nil)
        #expect(lookup.coachName(for: none) == nil)
        #expect(InteractionNameLookup.coachName(firstName: "Pat", lastName: nil) == "Pat")
    }

    @Test("no filters keeps everything, later display date first")
    func unfiltered() {
        #expect(ids(InteractionFilters()) == [1, 2, 3, 4, 5])
        #expect(!InteractionFilters().hasActiveFilters)
    }

    @Test("search looks in subject and content, ignoring case")
    func search() {
        #expect(ids(InteractionFilters(searchText: "invite")) == [1])
        #expect(ids(InteractionFilters(searchText: "CAMP")) == [1, 3])
        #expect(ids(InteractionFilters(searchText: "coach")) == [2])
        #expect(ids(InteractionFilters(searchText: " coach ")).isEmpty)  // spaces are searched for, as the spec filters
        #expect(ids(InteractionFilters(searchText: "Stanford")).isEmpty)
    }

    @Test("type, direction, sentiment and logged-by filters each narrow the list")
    func singleFilters() {
        #expect(ids(InteractionFilters(type: .email)) == [1, 3])
        #expect(ids(InteractionFilters(direction: .inbound)) == [2, 3])
        #expect(ids(InteractionFilters(sentiment: .negative)) == [5])
        #expect(ids(InteractionFilters(loggedBy: parent)) == [3])
        #expect(ids(InteractionFilters(loggedBy: athlete)) == [1, 2, 4, 5])
    }

    @Test("time periods keep display dates within 7, 14, 30 or 90 days", arguments: [
        (InteractionTimePeriod.last7Days, [1]), (.last14Days, [1, 2]), (.last30Days, [1, 2, 3]), (.last90Days, [1, 2, 3, 4]),
    ])
    func timePeriods(period: InteractionTimePeriod, expected: [Int]) {
        #expect(ids(InteractionFilters(timePeriod: period)) == expected)
    }

    @Test("filters combine with AND")
    func combined() {
        let filters = InteractionFilters(searchText: "camp", type: .email, direction: .inbound, timePeriod: .last30Days)
        #expect(ids(filters) == [3])
        #expect(filters.activeFilterCount == 4)
        #expect(ids(InteractionFilters(searchText: "camp", direction: .outbound, sentiment: .neutral)).isEmpty)
    }

    @Test("same display dates fall back to descending id, whatever the input order")
    func stableTies() {
        let instant = Fixture.daysAgo(1)
        let tied = [3, 1, 2].map { interaction($0, occurredAt: instant) }
        let order = InteractionFilters().apply(to: tied, now: Fixture.now).map(\.id)
        #expect(order == [3, 2, 1].map(Fixture.uuid))
        #expect(InteractionFilters().apply(to: tied.reversed(), now: Fixture.now).map(\.id) == order)
    }

    @Test("analytics count the filtered list, with 'this week' as the last 7 days")
    func analytics() {
        let all = InteractionAnalytics(of: InteractionFilters().apply(to: sample, now: Fixture.now), now: Fixture.now)
        #expect(all == InteractionAnalytics(totalCount: 5, outboundCount: 3, inboundCount: 2, thisWeekCount: 1))
        let inbound = InteractionFilters(direction: .inbound).apply(to: sample, now: Fixture.now)
        #expect(InteractionAnalytics(of: inbound, now: Fixture.now)
                == InteractionAnalytics(totalCount: 2, outboundCount: 0, inboundCount: 2, thisWeekCount: 0))
        let edge = [interaction(1, occurredAt: Fixture.daysAgo(7)), interaction(2, occurredAt: Fixture.daysAgo(7.01))]
        #expect(InteractionAnalytics(of: edge, now: Fixture.now).thisWeekCount == 1)
    }

    @Test("the listing filters, names and counts the same list")
    func listing() throws {
        var items = sample
        items[0].schoolId = stanford
        items[1].schoolId = Fixture.uuid(901)
        let listing = InteractionListing(
            all: items, filters: InteractionFilters(timePeriod: .last14Days),
            names: InteractionNameLookup(schoolNames: [stanford: "Stanford"]), now: Fixture.now)
        #expect(listing.interactions.map(\.schoolName) == ["Stanford", "Unknown School"])
        #expect(listing.analytics.totalCount == 2 && listing.analytics.thisWeekCount == 1)
        #expect(listing.resultsText == "2 interactions found")
        let object = try Fixture.jsonObject(listing)
        let first = (object["interactions"] as? [[String: Any]])?.first
        #expect(first?["schoolName"] as? String == "Stanford")
        #expect(first?["displayDate"] as? String == "2026-02-06T12:00:00.000+00:00")
        #expect(first?["type"] as? String == "email")
        #expect(first?["coachName"] is NSNull)
        #expect((object["analytics"] as? [String: Int])?["totalCount"] == 2)
    }

    @Test("an interaction round-trips through JSON with ISO 8601 dates")
    func json() throws {
        var value = interaction(1, .inPersonVisit, .inbound, subject: "Visit", sentiment: .veryPositive,
                                occurredAt: Fixture.date("2026-02-03T14:15:00Z"), school: stanford)
        value.attachments = ["photo.jpg"]
        let object = try Fixture.jsonObject(value)
        #expect(object["type"] as? String == "in_person_visit")
        #expect(object["sentiment"] as? String == "very_positive")
        #expect(object["occurredAt"] as? String == "2026-02-03T14:15:00.000+00:00")
        #expect(object["coachId"] is NSNull)
        #expect(try JSONDecoder().decode(Interaction.self, from: JSONEncoder().encode(value)) == value)
    }
}
