import Foundation
import Hummingbird

/// A request's query parameters, checked: unknown names, repeated names and bad values are 400s naming them.
///
/// ```swift
/// let query = try AppQuery(request, allowed: ["range", "page"])
/// let page = try query.integer("page", in: 1...) ?? 1
/// ```
/// Parsed as an HTML form encodes them (`+` is a space, `%2B` a plus), which is what
/// browsers, `URLSearchParams` and Python's `requests` send. `apikey` is always allowed.
struct AppQuery: Sendable {
    private var values: [String: String]

    /// Parses `request`'s query string; only `allowed` names (and `apikey`) are accepted.
    init(_ request: Request, allowed: Set<String>) throws(AppAPIError) {
        values = [:]
        guard let query = request.uri.query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0])
            let value = parts.count > 1 ? try Self.decode(parts[1]) : ""
            if name == "apikey" { continue }
            guard allowed.contains(name) else {
                let known = allowed.sorted().map { "'\($0)'" }.joined(separator: ", ")
                throw .invalidParameter("unknown query parameter '\(name)'" + (known.isEmpty ? "" : "; expected \(known)"))
            }
            guard values[name] == nil else { throw .invalidParameter("query parameter '\(name)' is given more than once") }
            values[name] = value
        }
    }

    private static func decode(_ part: Substring) throws(AppAPIError) -> String {
        let spaced = part.replacingOccurrences(of: "+", with: " ")
        // Nil also for escapes that are not UTF-8 (`%FF`).
        guard let decoded = spaced.removingPercentEncoding else {
            throw .invalidParameter("malformed percent-encoding in query '\(part)'")
        }
        // No value here may hold NUL: Postgres cannot compare or store it, and a search would match oddly.
        guard !decoded.utf8.contains(0) else { throw .invalidParameter("query '\(part)' holds the NUL character (%00)") }
        return decoded
    }

    /// The raw value, if given.
    func string(_ name: String) -> String? { values[name] }

    /// A value `parse` accepts; otherwise 400 naming the value and what was expected.
    func value<T>(_ name: String, expected: String, _ parse: (String) -> T?) throws(AppAPIError) -> T? {
        guard let text = values[name] else { return nil }
        guard let value = parse(text) else { throw .invalidParameter("invalid \(name) '\(text)': expected \(expected)") }
        return value
    }

    /// A case of a string enum, by raw value.
    func enumeration<T: RawRepresentable & CaseIterable>(_ name: String, _ type: T.Type) throws(AppAPIError) -> T?
    where T.RawValue == String {
        try value(name, expected: Self.oneOf(T.allCases.map(\.rawValue))) { T(rawValue: $0) }
    }

    /// A UUID.
    func uuid(_ name: String) throws(AppAPIError) -> UUID? {
        try value(name, expected: "a UUID") { UUID(uuidString: $0) }
    }

    /// A whole number in `range`.
    func integer(_ name: String, in range: some RangeExpression<Int>, expected: String) throws(AppAPIError) -> Int? {
        try value(name, expected: expected) { Int($0).flatMap { range.contains($0) ? $0 : nil } }
    }

    /// `true`/`false` (also `1`/`0`); absent is false.
    func flag(_ name: String) throws(AppAPIError) -> Bool {
        try value(name, expected: "true or false") { ["true": true, "1": true, "false": false, "0": false][$0] } ?? false
    }

    /// `one of 'a', 'b', 'c'`.
    static func oneOf(_ values: [String]) -> String {
        "one of " + values.map { "'\($0)'" }.joined(separator: ", ")
    }
}

extension UUID {
    /// A path segment as an id, or 400 naming it.
    init(pathValue: String?, name: String) throws(AppAPIError) {
        guard let pathValue, let id = UUID(uuidString: pathValue) else {
            throw .invalidParameter("invalid \(name) '\(pathValue ?? "")': expected a UUID")
        }
        self = id
    }
}
