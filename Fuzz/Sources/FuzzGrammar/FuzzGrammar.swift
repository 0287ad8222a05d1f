// libFuzzer input function for the PostgREST grammar (symlinked in as Grammar/).
//
// The first byte picks the parser (its value modulo 6, so the seeds start with a digit);
// the rest is the text, as the HTTP layer would hand it over after percent-decoding.
//   0 select=   1 a filter (key, newline, value)   2 and=/or= (key, newline, value)
//   3 order=    4 a whole raw query string          5 columns=, Prefer, Range

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let (key, value) = splitKey(text)
    switch data[0] % 6 {
    case 0:
        outcome { () throws(RESTError) in try SelectParser.parse(text) }
    case 1:
        outcome { () throws(RESTError) in try FilterParser.filter(key: key, value: value) }
    case 2:
        outcome { () throws(RESTError) in try LogicParser.parse(key: key.isEmpty ? "or" : key, value: value) }
    case 3:
        outcome { () throws(RESTError) in try OrderParser.parse(text) }
    case 4:
        outcome { () throws(RESTError) in try QueryParameters(query: text) }
        outcome { () throws(RESTError) in try QueryParameters(query: text, isRPCRead: true) }
    default:
        outcome { () throws(RESTError) in try QueryParameters.names(text, subject: "columns parameter") }
        outcome { () throws(RESTError) in try Preferences(headerValues: text.split(separator: "\n").map(String.init)) }
        if let (offset, limit) = RowRange.parseHeader(text) {
            outcome { () throws(RESTError) in try RowRange(offset: offset, limit: limit, rangeHeader: text) }
        }
    }
    return 0
}

/// `key\nvalue`; without a newline the whole text is the value of `column`.
private func splitKey(_ text: String) -> (String, String) {
    guard let newline = text.firstIndex(of: "\n") else { return ("column", text) }
    return (String(text[..<newline]), String(text[text.index(after: newline)...]))
}

/// Runs a parse and renders what came out, success or refusal, as the server would.
private func outcome<T>(_ parse: () throws(RESTError) -> T) {
    do {
        let value = try parse()
        _ = String(describing: value)
    } catch {
        // The refusal is rendered into a response body: it must not trap either.
        _ = error.body
        _ = error.description
    }
}
