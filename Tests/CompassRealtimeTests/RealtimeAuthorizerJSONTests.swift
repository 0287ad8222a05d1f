import CompassTokens
import Testing

@testable import CompassRealtime

@Suite("The argument of realtime.visible_rows (no database)")
struct RealtimeAuthorizerJSONTests {
    static let notes = VisibilityPlanTests.notes

    @Test func everyCheckBecomesOneObject() throws {
        let claims = #"{"role":"authenticated","sub":"a\"b","note":"line\nbreak"}"#
        let checks = [
            VisibilityCheck(
                table: Self.notes, key: .init(role: .authenticated, claimsJSON: claims),
                rowKeys: [["1"], ["quote\"d", "back\\slash\u{1}"]]),
            VisibilityCheck(table: Self.notes, key: .init(role: .anon, claimsJSON: "{}"), rowKeys: []),
        ]
        let text = RealtimeAuthorizer.checksJSON(checks).jsonText
        let expected: RealtimeJSON = [
            [
                "role": "authenticated", "claims": .string(claims), "relation": .string(Self.notes.quotedName),
                "keys": [["1"], ["quote\"d", "back\\slash\u{1}"]],
            ],
            ["role": "anon", "claims": "{}", "relation": .string(Self.notes.quotedName), "keys": []],
        ]
        #expect(try RealtimeJSON(parsing: text) == expected)
        #expect(text.contains(#""back\\slash\u0001""#))
    }

    @Test func noChecksIsAnEmptyArray() {
        #expect(RealtimeAuthorizer.checksJSON([]).jsonText == "[]")
    }
}
