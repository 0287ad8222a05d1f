import CompassHTTP
import Testing

@Suite("JSON nesting depth, counted without parsing")
struct JSONNestingTests {
    @Test(arguments: [
        (#"{"a":[1,{"b":[]}]}"#, 4, false),
        (#"{"a":[1,{"b":[]}]}"#, 3, true),
        (#"{"a":"[[[[[[[[[[","b":"\"[[[[[["}"#, 1, false),  // brackets in strings, escaped quotes
        (#"[[["#, 2, true),  // malformed, still counted
        (#"]]]]][[["#, 3, false),
        ("", 0, false),
    ])
    func depthAgainstALimit(text: String, limit: Int, exceeds: Bool) {
        #expect(JSONNesting.exceeds(limit, in: Array(text.utf8)) == exceeds)
    }
}
