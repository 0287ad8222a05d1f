// libFuzzer input function for the JSON scanners: the realtime parser (RealtimeJSON/) and
// REST's JSONText quoting (JSONText.swift).
//
// The first byte picks the mode (modulo 4); the rest is the text.
//   0 a document, parsed from raw bytes (invalid UTF-8 included), written back, parsed again
//   1 a row object read member by member (`objectMembers`), each raw text parsed again
//   2 any text quoted by JSONText and by RealtimeJSON: both must parse back to the text
//   3 JSONText.unquoted on arbitrary text (it reads error bodies back in tests and logs)

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let text = String(decoding: bytes, as: UTF8.self)
    switch data[0] % 4 {
    case 0:
        var parser = RealtimeJSONParser(bytes: bytes)
        guard let value = try? parser.parseDocument() else { return 0 }
        let written = value.jsonText
        guard let again = try? RealtimeJSON(parsing: written) else {
            fatalError("written JSON does not parse: \(written)")
        }
        precondition(again == value, "write-back changed the value: \(written)")
        precondition(again.jsonText == written, "writing is not stable: \(written)")
    case 1:
        guard let members = try? RealtimeJSON.objectMembers(of: text) else { return 0 }
        for member in members {
            guard let reparsed = try? RealtimeJSON(parsing: member.rawText) else {
                fatalError("member \(member.name)'s raw text does not parse: \(member.rawText)")
            }
            precondition(reparsed == member.value, "member \(member.name)'s raw text is not its value")
        }
    case 2:
        for quoted in [JSONText.quoted(text), RealtimeJSON.quoted(text)] {
            guard case .string(let back)? = try? RealtimeJSON(parsing: quoted) else {
                fatalError("quoted text is not a JSON string: \(quoted)")
            }
            precondition(back.unicodeScalars.elementsEqual(text.unicodeScalars), "quoting lost scalars: \(quoted)")
        }
    default:
        _ = JSONText.unquoted(text)
    }
    return 0
}
