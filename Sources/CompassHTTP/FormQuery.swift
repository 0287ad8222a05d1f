import Foundation
import Hummingbird

extension Request {
    /// The values of query parameter `name` read as HTML forms (and Go's `URL.Query`, which GoTrue
    /// uses) read them: `+` is a space, then `%XX` escapes are decoded. Hummingbird's
    /// `queryParameters` decode only the escapes, so `sort=created_at+asc`, as httpx and
    /// `URLSearchParams` send a space, kept its `+`.
    ///
    /// ```swift
    /// request.formQueryValues("sort")   // ["created_at asc"] for ?sort=created_at+asc
    /// ```
    public func formQueryValues(_ name: String) -> [String] {
        guard let query = uri.query else { return [] }
        return query.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard Self.formDecoded(parts[0]) == name else { return nil }
            return parts.count > 1 ? Self.formDecoded(parts[1]) : ""
        }
    }

    /// The first value of query parameter `name` read as a form reads it, if any.
    public func formQueryValue(_ name: String) -> String? {
        formQueryValues(name).first
    }

    /// `a+b%2B` → `a b+`; an invalid escape is kept as written.
    static func formDecoded(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
