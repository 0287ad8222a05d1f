import Hummingbird
import Testing

@testable import CompassREST

/// The request path's shortcuts give what the general code gives (no database).
@Suite("REST hot path shortcuts")
struct HotPathTests {
    @Test func queryStringsSplitByByteInASCIIAndByCharacterOtherwise() {
        let pairs = QueryString.pairs("select=id,name&id=eq.a%20b+c&&flag&x=%zz")
        #expect(pairs.map(\.name) == ["select", "id", "flag", "x"])
        #expect(pairs.map(\.value) == ["id,name", "eq.a b c", nil, "%zz"])
        // `&` with a combining mark is one character, not a separator.
        let marked = QueryString.pairs("a=x&\u{301}b=y&c=é")
        #expect(marked.map(\.name) == ["a", "c"])
        #expect(marked.map(\.value) == ["x&\u{301}b=y", "é"])
    }

    @Test func scannedTextIsTheSameWithOrWithoutMultibyteCharacters() throws {
        #expect(try FilterParser.filter(key: "name", value: "eq.Zoë Café").filter.operation == .compare(.eq, quantifier: nil, value: "Zoë Café"))
        #expect(try FilterParser.filter(key: "name", value: "eq.a\r\nb").filter.operation == .compare(.eq, quantifier: nil, value: "a\r\nb"))
        let items = try SelectParser.parse("nom:prénom,ville::text")
        #expect(items[0] == .column(SelectColumn(field: FieldReference(name: "prénom"), alias: "nom", cast: nil)))
        #expect(items[1] == .column(SelectColumn(field: FieldReference(name: "ville"), alias: nil, cast: "text")))
    }

    @Test func rememberedSelectsAreTheParsedOnesAndRefusalsStayRefusals() throws {
        let text = "id,actor:profiles!actor_id(username)"
        #expect(try SelectParser.parseRemembered(text, maximumDepth: 3) == SelectParser.parse(text, maximumDepth: 3))
        #expect(try SelectParser.parseRemembered(text, maximumDepth: 3) == SelectParser.parse(text, maximumDepth: 3))
        for _ in 0..<2 {
            #expect(throws: RESTError.self) { try SelectParser.parseRemembered("a(b(c(d)))", maximumDepth: 1) }
        }
    }

    @Test func replyBytesGoOutAsTheyCameAndInvalidUTF8IsRepairedAsADecodedStringWouldBe() {
        let valid = Array(#"[{"name":"Zoë"}]"#.utf8)
        #expect(Array(ReplyBytes.buffer(valid[...]).readableBytesView) == valid)
        let invalid: [UInt8] = [0x61, 0xFF, 0x62]
        #expect(Array(ReplyBytes.buffer(invalid[...]).readableBytesView) == Array(String(decoding: invalid, as: UTF8.self).utf8))
    }
}
