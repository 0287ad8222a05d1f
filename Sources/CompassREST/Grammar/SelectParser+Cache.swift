import Synchronization

extension SelectParser {
    /// ``parse(_:maximumDepth:)`` remembered for the `select=` values an app sends over and over:
    /// parsing walks the text character by character, and the same few values come back on most
    /// requests. Refusals are not kept (they are parsed again, and answered the same).
    static func parseRemembered(_ text: String, maximumDepth: Int) throws(RESTError) -> [SelectItem] {
        let key = ParsedSelects.Key(text: text, maximumDepth: maximumDepth)
        if let items = parsedSelects.withLock({ $0.items[key] }) { return items }
        let items = try parse(text, maximumDepth: maximumDepth)
        if text.utf8.count <= ParsedSelects.longestText {
            parsedSelects.withLock { $0.remember(items, for: key) }
        }
        return items
    }

    private static let parsedSelects = Mutex(ParsedSelects())
}

/// Parsed `select=` values, bounded: when full it starts over, so a client sending ever new
/// values costs at most `capacity` entries of at most `longestText` bytes each.
private struct ParsedSelects: ~Copyable {
    struct Key: Hashable {
        var text: String
        var maximumDepth: Int
    }

    static let capacity = 512
    static let longestText = 2048

    var items: [Key: [SelectItem]] = [:]

    mutating func remember(_ parsed: [SelectItem], for key: Key) {
        if items.count >= Self.capacity { items.removeAll(keepingCapacity: true) }
        items[key] = parsed
    }
}
