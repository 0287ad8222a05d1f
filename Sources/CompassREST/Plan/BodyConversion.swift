/// Form and CSV bodies as the JSON PostgREST makes of them before planning: a form is one
/// object of strings (a repeated name keeps its last value), CSV an array of objects keyed by
/// the header line, each field a string and an unquoted or quoted `NULL` a null.
enum BodyConversion {
    /// `a=1&b=x+y` as `[("a", "1"), ("b", "x y")]`, in order.
    static func formPairs(_ body: String) -> [(name: String, value: String)] {
        QueryString.pairs(body).map { ($0.name, $0.value ?? "") }
    }

    /// A form as one JSON object of strings.
    static func formObject(_ body: String) -> String {
        var values: [String: String] = [:]
        var order: [String] = []
        for (name, value) in formPairs(body) {
            if values[name] == nil { order.append(name) }
            values[name] = value
        }
        return "{" + order.map { JSONText.quoted($0) + ":" + JSONText.quoted(values[$0]!) }.joined(separator: ",") + "}"
    }

    /// CSV with a header line as a JSON array of objects; 400 PGRST102 when a line has another
    /// number of fields than the header.
    static func csvArray(_ body: String) throws(RESTError) -> String {
        var records = CSVRecords.parse(body)
        guard !records.isEmpty else { return "[]" }
        let header = records.removeFirst()
        var objects: [String] = []
        for record in records {
            guard record.count == header.count else { throw .invalidBody(.mismatchedFieldCount) }
            let members = zip(header, record).map { name, field in
                JSONText.quoted(name) + ":" + (field == "NULL" ? "null" : JSONText.quoted(field))
            }
            objects.append("{" + members.joined(separator: ",") + "}")
        }
        return "[" + objects.joined(separator: ",") + "]"
    }
}

/// RFC 4180 records: comma-separated fields, `"…"` quoting with `""` for a quote, CRLF or LF
/// line ends; a final empty line is no record.
enum CSVRecords {
    static func parse(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field = ""
        var quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" {
                        field.append("\"")
                        characters = characters.dropFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.append(character)
                }
                continue
            }
            switch character {
            case "\"" where field.isEmpty: quoted = true
            case ",":
                record.append(field)
                field = ""
            case "\n", "\r\n", "\r":
                record.append(field)
                records.append(record)
                record = []
                field = ""
            default: field.append(character)
            }
        }
        if !field.isEmpty || !record.isEmpty {
            record.append(field)
            records.append(record)
        }
        return records
    }
}
