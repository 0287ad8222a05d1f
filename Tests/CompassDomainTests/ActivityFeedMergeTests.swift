import Foundation
import Testing
@testable import CompassDomain

@Suite("Activity Feed: merge, order, widget, JSON")
struct ActivityFeedMergeTests {
    let school = Fixture.uuid(900)

    func interaction(_ n: Int, at date: Date) -> FeedInteractionRow {
        FeedInteractionRow(id: Fixture.uuid(n), schoolId: school, type: "email", content: "c\(n)", subject: nil,
                           occurredAt: date, createdAt: date)
    }

    func status(_ n: Int, at date: Date) -> FeedStatusChangeRow {
        FeedStatusChangeRow(id: Fixture.uuid(n), schoolId: school, newStatus: "interested", notes: nil, changedAt: date)
    }

    func document(_ n: Int, at date: Date) -> FeedDocumentRow {
        FeedDocumentRow(id: Fixture.uuid(n), title: "Doc \(n)", type: "transcript", createdAt: date)
    }

    @Test("the three sources merge into one list, newest first")
    func mergeNewestFirst() {
        let events = ActivityFeed.merge(
            interactions: [interaction(1, at: Fixture.daysAgo(5)), interaction(2, at: Fixture.ago(60))],
            statusChanges: [status(3, at: Fixture.daysAgo(1))],
            documents: [document(4, at: Fixture.daysAgo(3))],
            schoolNames: [school: "ASU"], now: Fixture.now)
        #expect(events.map(\.id) == [
            "interaction-\(Fixture.uuid(2).lowercasedString)", "status-\(Fixture.uuid(3).lowercasedString)",
            "doc-\(Fixture.uuid(4).lowercasedString)", "interaction-\(Fixture.uuid(1).lowercasedString)",
        ])
        #expect(events.map(\.entityName) == ["ASU", "ASU", "Doc 4", "ASU"])
    }

    @Test("each merged event is named from its own row's school: known, unknown to the lookup, or none")
    func eachEventNamedFromItsOwnRow() {
        let (asu, ucla, missing) = (Fixture.uuid(901), Fixture.uuid(902), Fixture.uuid(903))
        let names = [asu: "ASU", ucla: "UCLA"]
        let schools: [UUID?] = [asu, ucla, missing, nil]
        let interactions = (0..<9).map { n in
            FeedInteractionRow(id: Fixture.uuid(100 + n), schoolId: schools[n % 4], type: ["email", "camp", "zoom_call"][n % 3],
                               content: "c\(n)", subject: nil, occurredAt: Fixture.ago(Double(600 * n + 7)), createdAt: Fixture.now)
        }
        let statusChanges = (0..<7).map { n in
            FeedStatusChangeRow(id: Fixture.uuid(200 + n), schoolId: schools[(n + 1) % 4], newStatus: ["offer_received", "interested"][n % 2],
                                notes: nil, changedAt: Fixture.ago(Double(600 * n + 300)))
        }
        let documents = (0..<3).map { n in document(300 + n, at: Fixture.ago(Double(900 * n + 100))) }
        let merged = ActivityFeed.merge(
            interactions: interactions, statusChanges: statusChanges, documents: documents, schoolNames: names, now: Fixture.now)
        // One event at a time, each named as it is built: the same events in feed order.
        let oneByOne = ActivityFeed.sorted(
            interactions.map { ActivityFeed.event(for: $0, schoolNames: names, now: Fixture.now) }
                + statusChanges.map { ActivityFeed.event(for: $0, schoolNames: names, now: Fixture.now) }
                + documents.map { ActivityFeed.event(for: $0, now: Fixture.now) })
        #expect(merged == oneByOne)
        #expect(merged.first { $0.id.hasSuffix(Fixture.uuid(100).lowercasedString) }?.title == "Email with ASU")
        #expect(merged.first { $0.id.hasSuffix(Fixture.uuid(202).lowercasedString) }?.title == "Unknown School status changed to Offer Received")
        #expect(Set(merged.compactMap(\.entityName)).isSuperset(of: ["ASU", "UCLA", "Unknown School"]))
    }

    @Test("events at the same second are ordered by descending id")
    func sameSecondTies() {
        let instant = Fixture.ago(30)
        let events = ActivityFeed.merge(
            interactions: [interaction(7, at: instant)], statusChanges: [status(8, at: instant)],
            documents: [document(9, at: instant), document(5, at: instant)], schoolNames: [:], now: Fixture.now)
        #expect(events.map(\.id) == events.map(\.id).sorted(by: >))
        #expect(events.first?.id.hasPrefix("status-") == true)
        // The same rows in another order give the same feed.
        let shuffled = ActivityFeed.merge(
            interactions: [interaction(7, at: instant)], statusChanges: [status(8, at: instant)],
            documents: [document(5, at: instant), document(9, at: instant)], schoolNames: [:], now: Fixture.now)
        #expect(shuffled == events)
    }

    @Test("nothing in, nothing out")
    func emptyMerge() {
        let events = ActivityFeed.merge(interactions: [], statusChanges: [], documents: [], schoolNames: [:], now: Fixture.now)
        #expect(events.isEmpty)
    }

    @Test("the dashboard widget keeps the 10 most recent")
    func widget() {
        let rows = (1...15).map { document($0, at: Fixture.ago(Double($0) * 60)) }
        let widget = ActivityFeed.widget(ActivityFeed.merge(
            interactions: [], statusChanges: [], documents: rows, schoolNames: [:], now: Fixture.now))
        #expect(widget.count == 10)
        #expect(widget.map(\.entityName) == (1...10).map { "Doc \($0)" })
    }

    @Test("a realtime insert lands in order, and a repeated id replaces the old event")
    func insertingRealtimeEvent() {
        let feed = ActivityFeed.merge(
            interactions: [], statusChanges: [],
            documents: [document(1, at: Fixture.ago(600)), document(2, at: Fixture.ago(1_200))],
            schoolNames: [:], now: Fixture.now)
        let newest = ActivityFeed.event(for: document(3, at: Fixture.ago(10)), now: Fixture.now)
        let middle = ActivityFeed.event(for: document(4, at: Fixture.ago(900)), now: Fixture.now)
        let updated = ActivityFeed.inserting(middle, into: ActivityFeed.inserting(newest, into: feed))
        #expect(updated.map(\.entityName) == ["Doc 3", "Doc 1", "Doc 4", "Doc 2"])
        let renamed = ActivityFeed.event(
            for: FeedDocumentRow(id: Fixture.uuid(1), title: "Renamed", type: nil, createdAt: Fixture.ago(600)),
            now: Fixture.now)
        let replaced = ActivityFeed.inserting(renamed, into: updated)
        #expect(replaced.count == 4)
        #expect(replaced.map(\.entityName) == ["Doc 3", "Renamed", "Doc 4", "Doc 2"])
    }

    @Test("relative times can be refreshed for a later now")
    func refreshingRelativeTime() {
        let event = ActivityFeed.event(for: document(1, at: Fixture.ago(30)), now: Fixture.now)
        #expect(event.relativeTime == "just now")
        #expect(event.refreshingRelativeTime(now: Fixture.now.addingTimeInterval(3 * 3_600)).relativeTime == "3h ago")
    }

    @Test("JSON has exactly the spec's twelve camelCase keys, with null for a missing clickUrl")
    func jsonKeys() throws {
        let event = ActivityFeed.event(for: document(1, at: Fixture.ago(30)), now: Fixture.now)
        let object = try Fixture.jsonObject(event)
        #expect(Set(object.keys) == [
            "id", "type", "timestamp", "title", "description", "icon", "entityType", "entityId", "entityName",
            "metadata", "isClickable", "clickUrl",
        ])
        #expect(object["clickUrl"] is NSNull)
        #expect(object["type"] as? String == "document_upload")
        #expect(object["timestamp"] as? String == "2026-02-08T11:59:30.000+00:00")
        #expect((object["metadata"] as? [String: String]) == ["relativeTime": "just now"])
    }

    @Test("an event survives a JSON round trip")
    func jsonRoundTrip() throws {
        let row = FeedInteractionRow(
            id: Fixture.uuid(1), schoolId: nil, type: "dm", content: "hi", subject: nil,
            occurredAt: Fixture.date("2026-02-01T08:15:30.123456Z"), createdAt: Fixture.now)
        let event = ActivityFeed.event(for: row, schoolNames: [:], now: Fixture.now)
        let decoded = try JSONDecoder().decode(ActivityEvent.self, from: JSONEncoder().encode(event))
        #expect(decoded == event)
        #expect(decoded.timestamp == "2026-02-01T08:15:30.123+00:00")
    }

    @Test("decoding rejects a timestamp without an offset")
    func decodingRejectsNaiveTimestamp() throws {
        let json = #"{"id":"doc-1","type":"document_upload","timestamp":"2026-02-01T08:15:30","title":"t","#
            + #""description":"","icon":"📄","isClickable":false}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ActivityEvent.self, from: Data(json.utf8))
        }
    }
}
