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

/// What Foundation's decoder takes and Go's `encoding/json` (GoTrue) refuses or reads otherwise.
@Suite("JSON bodies read as strictly as GoTrue reads them")
struct JSONStrictnessTests {
    @Test(arguments: [
        (#"{"email":"a@b.c","password":"x"}"#, nil),
        (#"{"a":{"email":1},"email":2,"b":[{"email":3},{"email":4}]}"#, nil),  // the same key in different objects
        (#"{"a":"x,}","b":"\",]"}"#, nil),  // commas and brackets inside strings
        (#"[1, 2 , 3]"#, nil),
        (#"{"email":"a@b.c","email":"x@y.z"}"#, "the key 'email' is given twice"),
        (#"{"email":"a@b.c","\u0065mail":"x@y.z"}"#, "the key 'email' is given twice"),  // an escape hides nothing
        (#"{"a":{"k":1,"k":2}}"#, "the key 'k' is given twice"),
        (#"{"email":"a@b.c","EMAIL":"x@y.z"}"#, "the key 'EMAIL' is given twice"),  // Go matches fields in any case
        (#"{"data":{"name":1,"Name":2}}"#, nil),  // inside a value, keys are the client's own
        ("{\"data\":{\"\u{E9}\":1,\"e\u{301}\":2}}", "the key 'e\u{301}' is given twice"),  // one key to Swift
        (#"{"email":"a@b.c",}"#, "a comma before '}'"),
        (#"{"a":[1,2,]}"#, "a comma before ']'"),
        ("\u{FEFF}{}", "the body starts with a byte order mark"),
    ] as [(String, String?)])
    func problems(text: String, problem: String?) {
        #expect(JSONNesting.problem(in: Array(text.utf8)) == problem, "\(text)")
    }
}
