extension SelectParser {
    /// ``parse(_:maximumDepth:)`` remembered for the `select=` values an app sends over and over:
    /// parsing walks the text character by character, and the same few values come back on most
    /// requests.
    static func parseRemembered(_ text: String, maximumDepth: Int) throws(RESTError) -> [SelectItem] {
        try parsedSelects.value(for: SelectText(text: text, maximumDepth: maximumDepth), bytes: text.utf8.count) {
            (select) throws(RESTError) in try parse(select.text, maximumDepth: select.maximumDepth)
        }
    }

    private struct SelectText: Hashable, Sendable {
        var text: String
        var maximumDepth: Int
    }

    private static let parsedSelects = ParseMemo<SelectText, [SelectItem]>()
}
