/// Form and CSV bodies as the JSON PostgREST makes of them before planning: a form is one
/// object of strings (a repeated name keeps its last value), CSV an array of objects keyed by
/// the header line, each field a string and an unquoted or quoted `NULL` a null.
enum BodyConversion {
    /// `a=1&b=x+y` as `[("a", "1"), ("b", "x y")]`, in order; an escape that decodes to bytes
    /// that are not UTF-8 (`%FF`) is 400 22021, rather than stored as U+FFFD.
    static func formPairs(_ body: String) throws(RESTError) -> [(name: String, value: String)] {
        if let bad = QueryString.invalidUTF8(in: body) { throw .invalidUTF8(bad, in: "the request body") }
        return QueryString.pairs(body).map { ($0.name, $0.value ?? "") }
    }

    /// A form as one JSON object of strings.
    static func formObject(_ body: String) throws(RESTError) -> String {
        var values: [String: String] = [:]
        var order: [String] = []
        for (name, value) in try formPairs(body) {
            if values[name] == nil { order.append(name) }
            values[name] = value
        }
        return "{" + order.map { JSONText.quoted($0) + ":" + JSONText.quoted(values[$0]!) }.joined(separator: ",") + "}"
    }

    /// CSV with a header line as a JSON array of objects, blank lines skipped (as PostgREST's
    /// parser skips them); 400 PGRST102 without a whole header line or when a line has another
    /// number of fields than the header, 413 when the JSON would pass ``csvExpansionLimit``.
    static func csvArray(_ body: String) throws(RESTError) -> String {
        let limit = max(body.utf8.count * csvExpansionLimit, 64 << 10)
        var names: [String]?
        var output = "["
        try CSVRecords.forEach(in: body) { (record, ended) throws(RESTError) in
            guard let names else {
                guard ended else { throw .invalidBody(.missingCSVHeader) }
                names = record.map { JSONText.quoted($0) + ":" }
                return
            }
            if record == [""] { return }  // a blank line
            guard record.count == names.count else { throw .invalidBody(.mismatchedFieldCount) }
            if output.utf8.count > 1 { output += "," }
            output += "{"
            for (index, field) in record.enumerated() {
                if index > 0 { output += "," }
                output += names[index]
                if field == "NULL" { output += "null" } else { JSONText.appendQuoted(field, to: &output) }
            }
            output += "}"
            guard output.utf8.count <= limit else { throw .invalidBody(.expandsTooMuch(factor: csvExpansionLimit)) }
        }
        guard names != nil else { throw .invalidBody(.missingCSVHeader) }
        return output + "]"
    }

    /// How many times its own size a CSV body may grow as JSON. Each line repeats the header's
    /// names: one long name over many empty lines turned 300 KB into gigabytes.
    static let csvExpansionLimit = 16
}

/// RFC 4180 records: comma-separated fields, `"…"` quoting with `""` for a quote, CRLF, LF or
/// CR line ends; a final empty line is no record. Read as bytes: every delimiter is ASCII.
/// As strict as PostgREST's parser: a quote opens a field or nothing, and a quoted field ends
/// at its closing quote.
enum CSVRecords {
    /// Calls `body` with each record, in order, without holding them all, and whether a line
    /// break ended it (the last record may end with the text instead).
    static func forEach(in text: String, _ body: ([String], _ ended: Bool) throws(RESTError) -> Void) throws(RESTError) {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), lineFeed = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var closedQuote = false  // the field's closing quote was just read
        var bytes = text.utf8[...]
        while let byte = bytes.popFirst() {
            if quoted {
                if byte != quote {
                    field.append(byte)
                } else if bytes.first == quote {
                    field.append(quote)
                    bytes = bytes.dropFirst()
                } else {
                    quoted = false
                    closedQuote = true
                }
                continue
            }
            switch byte {
            case comma:
                record.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case lineFeed, carriageReturn:
                if byte == carriageReturn, bytes.first == lineFeed { bytes = bytes.dropFirst() }
                record.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
                try body(record, true)
                record.removeAll(keepingCapacity: true)
            case _ where closedQuote:
                throw .invalidBody(.malformedCSV("a quoted field must end at its closing quote"))
            case quote where field.isEmpty: quoted = true
            case quote:
                throw .invalidBody(.malformedCSV("a quote inside an unquoted field"))
            default: field.append(byte)
            }
            closedQuote = false
        }
        guard !quoted else { throw .invalidBody(.malformedCSV("a quoted field is not closed")) }
        if !field.isEmpty || !record.isEmpty || closedQuote {
            record.append(String(decoding: field, as: UTF8.self))
            try body(record, false)
        }
    }
}
