import Foundation
import Testing
@testable import CompassDomain

@Suite("Activity Feed: building events from rows")
struct ActivityFeedEventTests {
    let school = Fixture.uuid(900)
    var names: [UUID: String] { [school: "Arizona State"] }

    func interaction(
        _ n: Int, type: String = "email", school: UUID? = nil, content: String? = "Discussed camp schedule",
        subject: String? = "Camp", occurredAt: Date? = nil, createdAt: Date = Fixture.ago(3_600)
    ) -> FeedInteractionRow {
        FeedInteractionRow(
            id: Fixture.uuid(n), schoolId: school, type: type, content: content, subject: subject,
            occurredAt: occurredAt, createdAt: createdAt)
    }

    @Test("an interaction becomes '<Type> with <School>', clickable, with its fields")
    func interactionEvent() {
        let row = interaction(1, type: "phone_call", school: school, occurredAt: Fixture.ago(2 * 3_600))
        let event = ActivityFeed.event(for: row, schoolNames: names, now: Fixture.now)
        #expect(event.id == "interaction-00000000-0000-0000-0000-000000000001")
        #expect(event.type == .interaction)
        #expect(event.title == "Phone Call with Arizona State")
        #expect(event.description == "Discussed camp schedule")
        #expect(event.icon == "☎️")
        #expect(event.entityType == "school")
        #expect(event.entityId == school.lowercasedString)
        #expect(event.entityName == "Arizona State")
        #expect(event.isClickable)
        #expect(event.clickUrl == "/interactions/00000000-0000-0000-0000-000000000001")
        #expect(event.timestamp == "2026-02-08T10:00:00.000+00:00")
        #expect(event.relativeTime == "2h ago")
    }

    @Test("interactions use occurred_at when present")
    func occurredAtWins() {
        let row = interaction(1, occurredAt: Fixture.daysAgo(3), createdAt: Fixture.ago(60))
        #expect(ActivityFeed.event(for: row, schoolNames: [:], now: Fixture.now).date == Fixture.daysAgo(3))
    }

    @Test("interactions fall back to created_at when occurred_at is null")
    func createdAtFallback() {
        let row = interaction(1, occurredAt: nil, createdAt: Fixture.ago(300))
        let event = ActivityFeed.event(for: row, schoolNames: [:], now: Fixture.now)
        #expect(event.date == Fixture.ago(300))
        #expect(event.relativeTime == "5m ago")
    }

    @Test("no school_id reads 'Unknown School' in title and entity name, with no entity id")
    func noSchool() {
        let event = ActivityFeed.event(for: interaction(1, school: nil), schoolNames: names, now: Fixture.now)
        #expect(event.title == "Email with Unknown School")
        #expect(event.entityName == "Unknown School")
        #expect(event.entityId == nil)
    }

    @Test("a school the hydration did not find reads 'Unknown School' but keeps its id")
    func schoolNotFound() {
        let missing = Fixture.uuid(901)
        let event = ActivityFeed.event(for: interaction(1, school: missing), schoolNames: names, now: Fixture.now)
        #expect(event.entityName == "Unknown School")
        #expect(event.entityId == missing.lowercasedString)
    }

    @Test("description is the first 50 characters of content, else subject, else empty")
    func descriptionSources() {
        let long = String(repeating: "a", count: 49) + "bcdef"
        let cases: [(String?, String?, String)] = [
            (long, "subject", String(repeating: "a", count: 49) + "b"),
            (nil, "Just the subject", "Just the subject"),
            ("", "Empty content falls through", "Empty content falls through"),
            (nil, nil, ""),
        ]
        for (content, subject, expected) in cases {
            let row = interaction(1, content: content, subject: subject)
            #expect(ActivityFeed.event(for: row, schoolNames: [:], now: Fixture.now).description == expected)
        }
    }

    @Test("the 50-character cut counts characters, not bytes, and adds no ellipsis")
    func descriptionCountsCharacters() {
        let content = String(repeating: "🏈", count: 60)
        let event = ActivityFeed.event(for: interaction(1, content: content), schoolNames: [:], now: Fixture.now)
        #expect(event.description == String(repeating: "🏈", count: 50))
        #expect(!event.description.hasSuffix("…") && !event.description.hasSuffix("..."))
    }

    @Test("long titles and school names are left whole")
    func longTitleUntouched() {
        let longName = String(repeating: "University of Somewhere Very Far Away ", count: 5)
        let event = ActivityFeed.event(for: interaction(1, school: school), schoolNames: [school: longName], now: Fixture.now)
        #expect(event.title == "Email with \(longName)")
        #expect(event.entityName == longName)
    }

    @Test("each interaction type gets its DESIGN icon", arguments: [
        ("email", "📧"), ("phone_call", "☎️"), ("text", "💬"), ("in_person_visit", "🤝"),
        ("virtual_meeting", "💻"), ("camp", "⛺"), ("showcase", "🎬"), ("tweet", "🐦"), ("dm", "📱"),
        ("carrier_pigeon", "📝"),
    ])
    func icons(type: String, icon: String) {
        #expect(ActivityFeed.event(for: interaction(1, type: type), schoolNames: [:], now: Fixture.now).icon == icon)
    }

    @Test("an unknown interaction type is labelled from its code")
    func unknownTypeLabel() {
        let event = ActivityFeed.event(for: interaction(1, type: "zoom_call"), schoolNames: [:], now: Fixture.now)
        #expect(event.title == "Zoom Call with Unknown School")
    }

    @Test("a status change reads '<School> status changed to <Label>' and opens the school")
    func statusChangeEvent() {
        let notes = String(repeating: "n", count: 80)
        let row = FeedStatusChangeRow(
            id: Fixture.uuid(2), schoolId: school, newStatus: "offer_received", notes: notes, changedAt: Fixture.daysAgo(2))
        let event = ActivityFeed.event(for: row, schoolNames: names, now: Fixture.now)
        #expect(event.id == "status-00000000-0000-0000-0000-000000000002")
        #expect(event.type == .schoolStatusChange)
        #expect(event.title == "Arizona State status changed to Offer Received")
        #expect(event.description == String(repeating: "n", count: 50))
        #expect(event.icon == "📍")
        #expect(event.entityType == "school")
        #expect(event.entityName == "Arizona State")
        #expect(event.isClickable)
        #expect(event.clickUrl == "/schools/\(school.lowercasedString)")
        #expect(event.relativeTime == "2d ago")
    }

    @Test("a status change without notes has an empty description")
    func statusChangeWithoutNotes() {
        let row = FeedStatusChangeRow(
            id: Fixture.uuid(2), schoolId: nil, newStatus: "committed", notes: nil, changedAt: Fixture.now)
        let event = ActivityFeed.event(for: row, schoolNames: [:], now: Fixture.now)
        #expect(event.description == "")
        #expect(event.title == "Unknown School status changed to Committed")
    }

    @Test("a document reads 'Uploaded <title>', is described by its type and is not clickable")
    func documentEvent() {
        let row = FeedDocumentRow(
            id: Fixture.uuid(3), title: "Transcript 2025", type: "transcript", createdAt: Fixture.daysAgo(10))
        let event = ActivityFeed.event(for: row, now: Fixture.now)
        #expect(event.id == "doc-00000000-0000-0000-0000-000000000003")
        #expect(event.type == .documentUpload)
        #expect(event.title == "Uploaded Transcript 2025")
        #expect(event.description == "transcript")
        #expect(event.icon == "📄")
        #expect(event.entityType == "document")
        #expect(event.entityId == Fixture.uuid(3).lowercasedString)
        #expect(event.entityName == "Transcript 2025")
        #expect(!event.isClickable)
        #expect(event.clickUrl == nil)
        #expect(event.relativeTime == "Jan 29")
    }

    @Test("the timestamp carries the calendar's offset")
    func timestampOffset() {
        let calendar = CompassCalendar.gregorian(in: TimeZone(secondsFromGMT: -5 * 3_600)!)
        let row = FeedDocumentRow(id: Fixture.uuid(3), title: "t", type: nil, createdAt: Fixture.date("2026-02-08T03:00:00Z"))
        let event = ActivityFeed.event(for: row, now: Fixture.now, calendar: calendar)
        #expect(event.timestamp == "2026-02-07T22:00:00.000-05:00")
        #expect(CompassTimestamp.date(from: event.timestamp) == event.date)
    }

    @Test("the hydration ids are the distinct non-null school ids")
    func hydrationIds() {
        let other = Fixture.uuid(902)
        let ids = ActivityFeed.schoolIdsToHydrate(
            interactions: [interaction(1, school: school), interaction(2, school: nil), interaction(3, school: other)],
            statusChanges: [FeedStatusChangeRow(id: Fixture.uuid(4), schoolId: school, newStatus: "a", notes: nil,
                                                changedAt: Fixture.now)])
        #expect(ids == [school, other])
        #expect(ActivityFeed.schoolIdsToHydrate(interactions: [interaction(1)], statusChanges: []).isEmpty)
    }
}
