/// The window of rows a read returns: `offset`/`limit` intersected with a `Range: a-b` header.
///
/// ```swift
/// let range = try RowRange(offset: 10, limit: 5, rangeHeader: nil)   // rows 10…14
/// ```
public struct RowRange: Sendable, Hashable {
    /// The first row (0-based).
    public var offset: Int
    /// How many rows at most; nil for all.
    public var limit: Int?

    /// Every row.
    public static let all = RowRange(offset: 0, limit: nil)

    init(offset: Int, limit: Int?) {
        self.offset = offset
        self.limit = limit
    }

    /// Combines the query parameters with a `Range` header (`items=` unit implied), as PostgREST does.
    ///
    /// Kept as a first row and a count, never as a last row, so any `Int` a client writes
    /// (`offset=9223372036854775807&limit=10`) is a window, not an overflow.
    public init(offset queryOffset: Int?, limit queryLimit: Int?, rangeHeader: String?) throws(RESTError) {
        let header = rangeHeader.flatMap { Self.parseHeader($0.trimmingSpaces) }
        if case let (first, last?)? = header, last < first {
            throw .rangeNotSatisfiable(.lowerAboveUpper)
        }
        if let queryLimit, queryLimit < 0 {
            throw .rangeNotSatisfiable(.negativeLimit)
        }
        var lower = max(0, queryOffset ?? 0)
        var count = queryLimit
        if case let (first, last)? = header {
            if first > lower {
                // The query's window loses the rows the header skips.
                count = count.map { max(0, $0 - (first - lower)) }
                lower = first
            }
            if let last {
                let (through, overflow) = (last - lower).addingReportingOverflow(1)
                let headerCount = overflow ? Int.max : max(0, through)
                count = min(count ?? headerCount, headerCount)
            }
        }
        self.offset = lower
        self.limit = count
    }

    /// `12-34` or `12-`; anything else is ignored, as PostgREST ignores it.
    static func parseHeader(_ header: String) -> (Int, Int?)? {
        var text = Substring(header)
        if text.hasPrefix("items=") { text = text.dropFirst("items=".count) }
        let parts = text.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let first = Int(parts[0]), first >= 0, parts[0].allSatisfy(\.isNumber) else { return nil }
        if parts[1].isEmpty { return (first, nil) }
        guard parts[1].allSatisfy(\.isNumber), let last = Int(parts[1]) else { return nil }
        return (first, last)
    }

    /// `Content-Range` for `returned` rows of `total` (nil when not counted): `0-24/*`, `*/0`.
    public func contentRange(returned: Int, total: Int?) -> String {
        let (last, overflow) = offset.addingReportingOverflow(returned - 1)
        if overflow { return "*/\(total.map(String.init) ?? "*")" }
        let range = total != 0 && offset <= last ? "\(offset)-\(last)" : "*"
        return "\(range)/\(total.map(String.init) ?? "*")"
    }
}
