import Foundation
import Testing
@testable import CompassDomain

@Suite("JSON values")
struct JSONValueTests {
    func decode(_ text: String) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test("each JSON kind decodes to its case")
    func decodesKinds() throws {
        #expect(try decode("null") == .null)
        #expect(try decode("true") == .bool(true))
        #expect(try decode("0") == .integer(0))
        #expect(try decode("15") == .integer(15))
        #expect(try decode("-2.5") == .double(-2.5))
        #expect(try decode(#""hi""#) == .string("hi"))
        #expect(try decode(#"[1,"a",false]"#) == [1, "a", false])
        #expect(try decode(#"{"k":{"n":null}}"#) == .object(["k": .object(["n": .null])]))
    }

    @Test("values round-trip and render for people")
    func roundTripAndDisplay() throws {
        let value: JSONValue = ["apps": ["YouTube"], "limit": 90, "ratio": 0.5, "on": true, "none": .null]
        #expect(try decode(value.jsonText) == value)
        #expect(value.jsonText == #"{"apps":["YouTube"],"limit":90,"none":null,"on":true,"ratio":0.5}"#)
        #expect(JSONValue.string("Games").displayText == "Games")
        #expect(JSONValue.null.displayText == "none")
        #expect(JSONValue.double(3).displayText == "3")
        #expect(JSONValue.integer(-7).displayText == "-7")
    }

    @Test("UUIDs print lower case, as PostgreSQL does")
    func lowercaseUUIDs() {
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        #expect(id.lowercasedString == "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    }

    @Test("the default calendar is Gregorian in UTC")
    func defaultCalendar() {
        #expect(CompassCalendar.utc.timeZone.secondsFromGMT(for: Fixture.now) == 0)
        #expect(CompassCalendar.utc.identifier == .gregorian)
        #expect(CompassCalendar.date(daysBefore: Fixture.now, days: 7, in: CompassCalendar.utc) == Fixture.daysAgo(7))
    }
}

@Suite("Ordering helpers and feed sources")
struct OrderingTests {
    @Test("UUIDs sort byte by byte, like their lower-case text and like PostgreSQL")
    func uuidOrder() {
        let ids = (0..<300).map { _ in UUID() }
        #expect(ids.sorted { $0.sortsBefore($1) } == ids.sorted { $0.lowercasedString < $1.lowercasedString })
        #expect(Fixture.uuid(1).sortsBefore(Fixture.uuid(2)))
        #expect(!Fixture.uuid(2).sortsBefore(Fixture.uuid(2)))
    }

    @Test("each feed source names its table and its warning")
    func feedSources() {
        #expect(ActivityFeedSource.allCases.map(\.tableName) == ["interactions", "school_status_history", "documents"])
        #expect(ActivityFeedSource.documents.warning == "Documents could not be loaded; showing the rest of your activity.")
        #expect(ActivityFeedSource.statusChanges.eventType == .schoolStatusChange)
    }
}
