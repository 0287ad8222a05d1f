import CompassTokens
import Testing

@testable import CompassRealtime

@Suite("The argument of realtime.visible_rows (no database)")
struct RealtimeAuthorizerJSONTests {
    static let notes = VisibilityPlanTests.notes

    @Test func everyCheckBecomesOneObjectWithTheClaimsAsAnObject() throws {
        let claims = #"{"role":"authenticated","sub":"a\"b","note":"line\nbreak"}"#
        let checks = [
            VisibilityCheck(
                table: Self.notes, key: .init(role: .authenticated, claimsJSON: claims),
                rowKeys: [["1"], ["quote\"d", "back\\slash\u{1}"]]),
            VisibilityCheck(table: Self.notes, key: .init(role: .anon, claimsJSON: "{}"), rowKeys: []),
        ]
        let text = RealtimeAuthorizer.checksJSON(checks, claimObjects: ClaimsObjectTexts())
        let expected: RealtimeJSON = [
            [
                "role": "authenticated", "claims": ["role": "authenticated", "sub": "a\"b", "note": "line\nbreak"],
                "relation": .string(Self.notes.quotedName), "keys": [["1"], ["quote\"d", "back\\slash\u{1}"]],
            ],
            ["role": "anon", "claims": [:], "relation": .string(Self.notes.quotedName), "keys": []],
        ]
        #expect(try RealtimeJSON(parsing: text) == expected)
        #expect(text.contains(#""back\\slash\u0001""#))
        #expect(text.contains(claims))  // spliced in as signed, not re-encoded
    }

    /// Claims that are not exactly one object go as a string, so they cannot add members
    /// (a second "claims", another role) to the check around them.
    @Test func claimsThatAreNotOneObjectGoAsAString() throws {
        let objects = ClaimsObjectTexts()
        for claims in [
            #"{"role":"anon"},"claims":{"role":"authenticated","sub":"someone"}"#, #"{"role":"anon""#, "[]", "", "null",
        ] {
            let check = VisibilityCheck(table: Self.notes, key: .init(role: .anon, claimsJSON: claims), rowKeys: [["1"]])
            let parsed = try RealtimeJSON(parsing: RealtimeAuthorizer.checksJSON([check], claimObjects: objects))
            #expect(parsed == [["role": "anon", "claims": .string(claims), "relation": .string(Self.notes.quotedName), "keys": [["1"]]]])
        }
    }

    @Test func theMemoryOfObjectsIsBounded() {
        let objects = ClaimsObjectTexts(limit: 2)
        for index in 0..<5 { #expect(objects.isObject(#"{"n":\#(index)}"#)) }
        #expect(objects.isObject(#"{"n":0}"#))
        #expect(!objects.isObject(#"{"n":0} {}"#))
    }

    @Test func noChecksIsAnEmptyArray() {
        #expect(RealtimeAuthorizer.checksJSON([], claimObjects: ClaimsObjectTexts()) == "[]")
    }
}
