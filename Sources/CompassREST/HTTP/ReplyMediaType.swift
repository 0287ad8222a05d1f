/// The representation `Accept` asks for, as PostgREST negotiates it: the highest-quality
/// type it can produce, and among equals the first listed.
///
/// ```swift
/// let media = try ReplyMediaType.negotiate("application/vnd.pgrst.object+json;nulls=stripped")
/// // media.shape == .singleObject, media.stripsNulls == true
/// ```
struct ReplyMediaType: Sendable, Hashable {
    /// What the body is.
    enum Shape: Sendable, Hashable {
        /// A JSON array of rows.
        case array
        /// One JSON object (`vnd.pgrst.object`): exactly one row, else 406 PGRST116.
        case singleObject
        /// `text/csv`: a header line of column names, then one line per row.
        case csv
        /// A function's scalar value as it is, for a media type its return type (a domain) is
        /// named after, as PostgREST's media type handlers: `text/plain`, `text/xml`.
        case text(String)
    }

    /// The media types a function may answer in as ``Shape/text(_:)``.
    static let functionTextTypes: Set<String> = ["text/plain", "text/xml"]

    var shape: Shape
    /// `;nulls=stripped`: keys whose value is null are left out of every object.
    var stripsNulls = false

    static let json = ReplyMediaType(shape: .array)

    /// Whether the reply must be exactly one row.
    var isSingleObject: Bool { shape == .singleObject }

    /// The `Content-Type` of a reply in this representation.
    var contentType: String {
        switch (shape, stripsNulls) {
        case (.array, false): "application/json; charset=utf-8"
        case (.array, true): "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8"
        case (.singleObject, false): "application/vnd.pgrst.object+json; charset=utf-8"
        case (.singleObject, true): "application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8"
        case (.csv, _): "text/csv; charset=utf-8"
        case (.text(let type), _): type + "; charset=utf-8"
        }
    }

    /// The representation for an `Accept` header (JSON when there is none); 406 PGRST107 when
    /// no listed type is one this server produces.
    static func negotiate(_ accept: String?, textTypes: Set<String> = []) throws(RESTError) -> ReplyMediaType {
        guard let accept, !accept.trimmingSpaces.isEmpty else { return .json }
        let ranges = accept.split(separator: ",").map { MediaRange(String($0)) }
        // A stable sort: equal qualities keep the client's order.
        let ordered = ranges.enumerated().sorted { ($1.element.quality, $0.offset) < ($0.element.quality, $1.offset) }.map(\.element)
        for range in ordered where range.quality > 0 {
            if let media = served(range) { return media }
            if textTypes.contains(range.type) { return ReplyMediaType(shape: .text(range.type)) }
        }
        throw .unavailableMediaTypes(ranges.map(\.type))
    }

    private static func served(_ range: MediaRange) -> ReplyMediaType? {
        let stripped = range.parameters["nulls"] == "stripped"
        switch range.type {
        case "application/json", "*/*", "application/*": return .json
        case "application/vnd.pgrst.array+json", "application/vnd.pgrst.array": return ReplyMediaType(shape: .array, stripsNulls: stripped)
        case "application/vnd.pgrst.object+json", "application/vnd.pgrst.object":
            return ReplyMediaType(shape: .singleObject, stripsNulls: stripped)
        case "text/csv": return ReplyMediaType(shape: .csv)
        default: return nil
        }
    }
}

/// One element of `Accept`: `type/subtype;name=value;q=0.5`, names and type lower-cased.
struct MediaRange {
    var type: String
    var parameters: [String: String] = [:]
    var quality = 1.0

    init(_ text: String) {
        var pieces = text.split(separator: ";").map { String($0).trimmingSpaces }
        type = pieces.isEmpty ? "" : pieces.removeFirst().lowercased()
        for piece in pieces {
            let pair = piece.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces }
            guard pair.count == 2 else { continue }
            let name = pair[0].lowercased()
            let value = pair[1].withoutQuotes
            if name == "q" {
                quality = Double(value) ?? 1
            } else {
                parameters[name] = value
            }
        }
    }
}

extension String {
    /// Without surrounding double quotes (a quoted media type parameter).
    fileprivate var withoutQuotes: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
