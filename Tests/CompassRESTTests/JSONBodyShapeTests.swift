import Foundation
import Testing

@testable import CompassREST

/// The body reader PostgREST's checks use, held to Foundation's parser where both read a body,
/// and past it where Foundation gives up on valid JSON.
@Suite("JSON body shape")
struct JSONBodyShapeTests {
    /// The shape Foundation's parser gives, for comparison.
    static func foundationShape(_ text: String) -> JSONBodyShape? {
        guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return nil }
        if let object = value as? [String: Any] { return .object(Set(object.keys)) }
        if let array = value as? [Any] { return .array(array.map { ($0 as? [String: Any]).map { Set($0.keys) } }) }
        return .scalar
    }

    @Test("agrees with Foundation on valid and invalid bodies", arguments: [
        #"{}"#, #"[]"#, #" { "a" : 1 , "b" : [ 1 , { "c" : 2 } ] } "#, #"[{"a":1},{"b":2},3,"x",null]"#,
        #"{"a":1,"a":2}"#, #""text""#, "12", "-0.5e-3", "true", "false", "null", #"{"\u00e9t\u00e9":1,"a\"b":2,"\ud83d\ude00":3}"#,
        #"[{"x":{"y":{"z":[]}}}]"#, #"{"":0}"#, "[1,2,[3,[4,[5]]]]", #"{"a":"\n\t\/\\"}"#,
        "", " ", "{", "}", "[1 2]", #"{"a" 1}"#, "{a:1}", "{'a':1}", "01", "-", "1.", ".5", "1e", "+1",
        "tru", "nul", "[1]]", "{}}", #""unterminated"#, "\"a\u{1}b\"", #""\x""#, #""\u12""#, "[1]x", "NaN", "Infinity",
    ])
    func agreesWithFoundation(text: String) {
        #expect(JSONBodyShape(text) == Self.foundationShape(text), "\(text.debugDescription)")
    }

    @Test("random bodies read the same as Foundation reads them")
    func randomBodies() throws {
        var random = SystemRandomNumberGenerator()
        func value(depth: Int) -> Any {
            switch depth > 3 ? Int.random(in: 0...2, using: &random) : Int.random(in: 0...4, using: &random) {
            case 0: return Int.random(in: -1_000_000...1_000_000, using: &random)
            case 1: return ["plain", "quote \" and \\", "ünïcödé", "emoji 😀", "tab\t", ""].randomElement(using: &random)!
            case 2: return NSNull()
            case 3: return (0..<Int.random(in: 0...4, using: &random)).map { _ in value(depth: depth + 1) }
            default:
                var object: [String: Any] = [:]
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    object[["id", "name", "é", "a b", "\"q\"", "x\ny"].randomElement(using: &random)!] = value(depth: depth + 1)
                }
                return object
            }
        }
        for _ in 0..<500 {
            let body = String(decoding: try JSONSerialization.data(withJSONObject: value(depth: 0), options: [.fragmentsAllowed]), as: UTF8.self)
            #expect(JSONBodyShape(body) == Self.foundationShape(body), "\(body)")
        }
    }

    @Test("reads what Foundation refuses but Postgres takes: huge numbers, any depth")
    func beyondFoundation() {
        #expect(JSONBodyShape(#"{"amount":1e400,"tiny":-1E-400}"#) == .object(["amount", "tiny"]))
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONBodyShape(#"{"nested":\#(deep)}"#) == .object(["nested"]))
        #expect(JSONBodyShape(String(repeating: "[", count: 100_000) + String(repeating: "]", count: 99_999)) == nil)
        // Trailing commas: Foundation lets them through; RFC 8259, PostgREST and Postgres do not.
        #expect(JSONBodyShape("[1,]") == nil)
        #expect(JSONBodyShape(#"{"a":1,}"#) == nil)
        let wide = "[" + Array(repeating: #"{"a":1,"b":2}"#, count: 50_000).joined(separator: ",") + "]"
        #expect(JSONBodyShape(wide) == .array(Array(repeating: ["a", "b"], count: 50_000)))
    }
}
