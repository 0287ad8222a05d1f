import CompassDomain
import Foundation
import Testing

@Suite("PrettyJSONWriter writes what CompassJSON's JSONEncoder writes")
struct PrettyJSONWriterTests {
    /// Every ASCII control character, DEL, quotes, backslash, slash and non-ASCII text.
    static let awkward = (0..<32).map { String(UnicodeScalar(UInt8($0))) }.joined()
        + "\u{7F} \"quoted\" back\\slash a/b/c é 漢字 🏈 \u{2028}\u{2029} </script>"

    func event(_ n: Int, text: String, optionalsSet: Bool, metadata: [String: String]?) -> ActivityEvent {
        ActivityEvent(
            id: "interaction-\(Fixture.uuid(n))", type: [.interaction, .schoolStatusChange, .documentUpload][n % 3],
            date: Fixture.ago(Double(n) * 3_600), title: "Title \(text)", description: text, icon: "💬",
            entityType: optionalsSet ? "school" : nil, entityId: optionalsSet ? "\(Fixture.uuid(n + 100))" : nil,
            entityName: optionalsSet ? text : nil, metadata: metadata, isClickable: n % 2 == 0,
            clickUrl: optionalsSet ? "/interactions/\(Fixture.uuid(n))" : nil)
    }

    func expectSameBytes(_ value: some CompassJSONWritable) throws {
        let expected = try CompassJSON.encoder().encode(value)
        var json = PrettyJSONWriter()
        value.write(to: &json)
        #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        // And CompassJSON takes this path.
        #expect(try CompassJSON.encode(value) == Data(json.bytes) + Data("\n".utf8))
    }

    @Test func aPageOfAwkwardEventsIsByteForByteTheEncoders() throws {
        let events = [
            event(1, text: Self.awkward, optionalsSet: true, metadata: ["relativeTime": "2h ago"]),
            event(2, text: "", optionalsSet: false, metadata: nil),
            event(3, text: "plain", optionalsSet: true, metadata: ["relativeTime": "Jan 15", "b": Self.awkward, "A": ""]),
            event(4, text: "{\"json\": [1, 2]}", optionalsSet: false, metadata: [:]),
        ]
        try expectSameBytes(ActivityFeedPage(events: events, page: 2, totalPages: 7, total: 123))
    }

    @Test func eachCharacterThatNeedsEscapingIsFoundAtEveryPositionOfAString() throws {
        // Strings that need no escape are copied whole: one that does must never be, wherever its character is.
        let specials = ["\"", "\\", "\u{0}", "\u{1F}", "\n"]
        let harmless = ["\u{20}", "\u{21}", "\u{23}", "\u{5B}", "\u{5D}", "\u{7F}", "é"]
        for length in 0..<20 {
            for position in 0..<max(length, 1) {
                for insert in specials + harmless where length > 0 {
                    var characters = Array(repeating: "a", count: length)
                    characters[position] = insert
                    let text = characters.joined()
                    try expectSameBytes(ActivityFeedPage(
                        events: [event(position, text: text, optionalsSet: false, metadata: nil)], page: 1, totalPages: 1, total: 1))
                }
            }
        }
    }

    @Test func anEmptyPageIsByteForByteTheEncoders() throws {
        try expectSameBytes(ActivityFeedPage(events: [], page: 1, totalPages: 1, total: 0))
    }

    @Test func negativeAndLargeNumbersAreByteForByteTheEncoders() throws {
        try expectSameBytes(ActivityFeedPage(events: [], page: -1, totalPages: Int.max, total: Int.min))
    }
}

/// Arrays nested `depth` deep around one string: deeper than the writer's ready-made indentation.
private struct Nested: CompassJSONWritable {
    let depth: Int

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if depth == 0 { try container.encode("leaf") } else { try container.encode([Nested(depth: depth - 1)]) }
    }

    func write(to json: inout PrettyJSONWriter) {
        if depth == 0 { return json.string("leaf") }
        json.array { json in
            json.element()
            Nested(depth: depth - 1).write(to: &json)
        }
    }
}

extension PrettyJSONWriterTests {
    @Test func indentationDeeperThanAnyReplyIsStillTheEncoders() throws {
        for depth in [1, 31, 32, 33, 40] { try expectSameBytes(Nested(depth: depth)) }
    }
}
