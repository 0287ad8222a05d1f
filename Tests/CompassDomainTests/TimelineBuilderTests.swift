import Foundation
import Testing
@testable import CompassDomain

@Suite("Timeline: items from rows")
struct TimelineBuilderTests {
    let asu = Fixture.uuid(900)
    var names: [UUID: String] { [asu: "Arizona State"] }

    @Test("an event keeps its name, span and school, and opens /events/<id>")
    func event() {
        let row = TimelineEventRow(id: Fixture.uuid(1), type: "official_visit", name: "ASU Official Visit",
                                   startDate: Fixture.daysAgo(10), endDate: Fixture.daysAgo(8), schoolId: asu)
        let item = TimelineBuilder.item(for: row, schoolNames: names)
        #expect(item.id == "event-\(Fixture.uuid(1).lowercasedString)")
        #expect(item.type == .event)
        #expect(item.typeLabel == "Official Visit")
        #expect(item.label == "ASU Official Visit")
        #expect(item.emoji == "📅")
        #expect(item.date == Fixture.daysAgo(10) && item.endDate == Fixture.daysAgo(8))
        #expect(!item.isPointInTime)
        #expect(item.schoolName == "Arizona State")
        #expect(item.detailPath == "/events/\(Fixture.uuid(1).lowercasedString)")
    }

    @Test("an interaction is labelled by its subject, else its type, and dated occurred_at, else created_at")
    func interaction() {
        let withSubject = TimelineBuilder.item(
            for: TimelineInteractionRow(id: Fixture.uuid(2), type: "phone_call", subject: "Intro call",
                                        occurredAt: Fixture.daysAgo(3), createdAt: Fixture.daysAgo(1), schoolId: nil),
            schoolNames: names)
        #expect(withSubject.label == "Intro call")
        #expect(withSubject.typeLabel == "Phone Call")
        #expect(withSubject.emoji == "☎️")
        #expect(withSubject.date == Fixture.daysAgo(3))
        #expect(withSubject.schoolName == nil)
        #expect(withSubject.isPointInTime)
        let bare = TimelineBuilder.item(
            for: TimelineInteractionRow(id: Fixture.uuid(3), type: "dm", subject: nil, occurredAt: nil,
                                        createdAt: Fixture.daysAgo(1), schoolId: Fixture.uuid(999)),
            schoolNames: names)
        #expect(bare.label == "Direct Message")
        #expect(bare.date == Fixture.daysAgo(1))
        #expect(bare.schoolName == "Unknown School")
        #expect(bare.detailPath == "/interactions/\(Fixture.uuid(3).lowercasedString)")
    }

    @Test("an offer reads '<Type> Offer' and falls back to created_at")
    func offer() {
        let item = TimelineBuilder.item(
            for: TimelineOfferRow(id: Fixture.uuid(4), offerType: "full_ride", offerDate: nil,
                                  createdAt: Fixture.daysAgo(2), schoolId: asu),
            schoolNames: names)
        #expect(item.label == "Full Ride Offer")
        #expect(item.date == Fixture.daysAgo(2))
        #expect(item.detailPath == "/offers/\(Fixture.uuid(4).lowercasedString)")
        let verbal = TimelineBuilder.item(
            for: TimelineOfferRow(id: Fixture.uuid(5), offerType: "verbal_offer", offerDate: Fixture.daysAgo(9),
                                  createdAt: Fixture.daysAgo(2), schoolId: asu),
            schoolNames: names)
        #expect(verbal.label == "Verbal Offer")
        #expect(verbal.date == Fixture.daysAgo(9))
    }

    @Test("a status change shows before → after, keeps its notes, and has no detail page")
    func statusChange() {
        let item = TimelineBuilder.item(
            for: TimelineStatusChangeRow(id: Fixture.uuid(6), schoolId: asu, previousStatus: "interested",
                                         newStatus: "offer_received", changedAt: Fixture.daysAgo(1), notes: "Huge day"),
            schoolNames: names)
        #expect(item.label == "Interested → Offer Received")
        #expect(item.typeLabel == "Status Change")
        #expect(item.details == "Huge day")
        #expect(item.detailPath == nil)
        let first = TimelineBuilder.item(
            for: TimelineStatusChangeRow(id: Fixture.uuid(7), schoolId: asu, previousStatus: nil,
                                         newStatus: "researching", changedAt: Fixture.daysAgo(1), notes: nil),
            schoolNames: names)
        #expect(first.label == "Status changed to Researching")
    }

    @Test("all sources merge newest first, and school ids are collected once")
    func merged() {
        let events = [TimelineEventRow(id: Fixture.uuid(1), type: "camp", name: "Camp", startDate: Fixture.daysAgo(5),
                                       endDate: nil, schoolId: asu)]
        let offers = [TimelineOfferRow(id: Fixture.uuid(2), offerType: "partial", offerDate: Fixture.daysAgo(1),
                                       createdAt: Fixture.now, schoolId: asu)]
        let changes = [TimelineStatusChangeRow(id: Fixture.uuid(3), schoolId: Fixture.uuid(901), previousStatus: nil,
                                               newStatus: "a", changedAt: Fixture.daysAgo(3), notes: nil)]
        let items = TimelineBuilder.items(events: events, offers: offers, statusChanges: changes, schoolNames: names)
        #expect(items.map(\.type) == [.offer, .statusChange, .event])
        #expect(TimelineBuilder.schoolIds(events: events, offers: offers, statusChanges: changes) == [asu, Fixture.uuid(901)])
    }

    @Test("items encode with ISO 8601 dates and round-trip")
    func json() throws {
        let item = TimelineBuilder.item(
            for: TimelineEventRow(id: Fixture.uuid(1), type: "camp", name: "Camp", startDate: Fixture.daysAgo(5),
                                  endDate: nil, schoolId: nil),
            schoolNames: [:])
        let object = try Fixture.jsonObject(item)
        #expect(object["type"] as? String == "event")
        #expect(object["date"] as? String == "2026-02-03T12:00:00.000+00:00")
        #expect(object["endDate"] is NSNull && object["schoolId"] is NSNull)
        #expect(try JSONDecoder().decode(TimelineItem.self, from: JSONEncoder().encode(item)) == item)
    }
}
