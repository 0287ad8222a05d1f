/// The representation `Accept` asks for, as PostgREST negotiates it: the first type in the
/// client's order of preference that this server, or one of the schema's media type handlers, produces.
///
/// ```swift
/// let accept = MediaRange.ordered("application/vnd.pgrst.object+json;nulls=stripped")
/// let media = try ReplyMediaType.negotiate(accept, handlers: cache.mediaHandlers, target: .relation("todos"))
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
        /// What a media type handler of the schema makes of the rows (``MediaHandler``).
        case handler(MediaHandler)
    }

    var shape: Shape
    /// `;nulls=stripped`: keys whose value is null are left out of every object.
    var stripsNulls = false
    /// The statement's `EXPLAIN` instead of its body in this representation (`vnd.pgrst.plan`).
    var plan: PlanOutput?

    static let json = ReplyMediaType(shape: .array)

    /// Whether the reply must be exactly one row.
    var isSingleObject: Bool { shape == .singleObject }

    /// Whether the body is bytes (a handler's domain over `bytea`), sent by the statement as hex.
    var isBinary: Bool {
        if plan == nil, case .handler(let handler) = shape { return handler.isBinary }
        return false
    }

    /// The `Content-Type` of a reply in this representation: PostgREST names a charset for the
    /// types it knows (a plan's among them), and none for a handler's other types.
    var contentType: String {
        if let plan { return plan.mediaType(for: bodyType) + "; charset=utf-8" }
        if case .handler(let handler) = shape, !Self.textTypes.contains(handler.mediaType) { return bodyType }
        return bodyType + "; charset=utf-8"
    }

    /// The body's media type, without a charset.
    private var bodyType: String {
        switch (shape, stripsNulls) {
        case (.array, false): "application/json"
        case (.array, true): "application/vnd.pgrst.array+json;nulls=stripped"
        case (.singleObject, false): "application/vnd.pgrst.object+json"
        case (.singleObject, true): "application/vnd.pgrst.object+json;nulls=stripped"
        case (.csv, _): "text/csv"
        case (.handler(let handler), _): handler.mediaType
        }
    }

    /// The media types PostgREST sends with `; charset=utf-8`.
    private static let textTypes: Set<String> = [
        "application/json", "application/geo+json", "text/csv", "text/plain", "text/xml", "application/openapi+json",
    ]

    /// The first of `accept` (see ``MediaRange/ordered(_:)``) that can be sent: the vendored JSON
    /// forms first (no handler overrides them), then a handler of the schema for `target` (a table,
    /// view or function whose own rows the reply holds; nil when `select=` chose columns) or for
    /// any rows, then the built-in JSON and CSV. A plan (`vnd.pgrst.plan`) of the representation its
    /// `for` names, when `allowsPlans`; passed over otherwise, as PostgREST does without
    /// `db-plan-enabled`. 406 PGRST107 when none can.
    static func negotiate(
        _ accept: [MediaRange], handlers: MediaHandlers, target: MediaHandlers.Target?, allowsPlans: Bool = false
    ) throws(RESTError) -> ReplyMediaType {
        for range in accept where range.quality > 0 {
            if let format = PlanOutput.format(of: range.type) {
                guard allowsPlans else { continue }
                let explained = MediaRange(range.parameters["for"] ?? "application/json")
                guard PlanOutput.format(of: explained.type) == nil, var media = representation(explained, handlers: handlers, target: target)
                else { continue }
                media.plan = PlanOutput(format: format, options: PlanOutput.options(range.parameters["options"]))
                return media
            }
            if let media = representation(range, handlers: handlers, target: target) { return media }
        }
        throw .unavailableMediaTypes(accept.map(\.type))
    }

    private static func representation(_ range: MediaRange, handlers: MediaHandlers, target: MediaHandlers.Target?) -> ReplyMediaType? {
        if let media = vendored(range) { return media }
        if let handler = handlers.handler(for: range.handlerLookupType, target: target) {
            return ReplyMediaType(shape: .handler(handler))
        }
        return builtIn(range)
    }

    /// `vnd.pgrst.object`, and `vnd.pgrst.array` with nulls stripped: PostgREST's own forms.
    private static func vendored(_ range: MediaRange) -> ReplyMediaType? {
        let stripped = range.parameters["nulls"] == "stripped"
        switch range.type {
        case "application/vnd.pgrst.object+json", "application/vnd.pgrst.object": return ReplyMediaType(shape: .singleObject, stripsNulls: stripped)
        case "application/vnd.pgrst.array+json", "application/vnd.pgrst.array":
            return stripped ? ReplyMediaType(shape: .array, stripsNulls: true) : nil
        default: return nil
        }
    }

    private static func builtIn(_ range: MediaRange) -> ReplyMediaType? {
        switch range.handlerLookupType {
        case "application/json", "*/*", "application/*": .json
        case "text/csv": ReplyMediaType(shape: .csv)
        default: nil
        }
    }
}

/// One element of `Accept`: `type/subtype;name=value;q=0.5`, names and type lower-cased.
struct MediaRange: Sendable, Hashable {
    var type: String
    var parameters: [String: String] = [:]
    var quality = 1.0

    init(_ text: String) {
        var pieces = Self.split(text, on: UInt8(ascii: ";")).map { String($0).trimmingSpaces }
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

    /// An `Accept` header's ranges, most preferred first: by quality, then the more specific
    /// (parameters less `*`s), then in the client's order. No header is `*/*`.
    static func ordered(_ accept: String?) -> [MediaRange] {
        guard let accept else { return anything }
        // A client sends the same header on every request: each is read once.
        return orderings.value(for: accept) { accept in
            accept.trimmingSpaces.isEmpty ? anything : ordering(accept)
        }
    }

    private static let anything = [MediaRange("*/*")]
    private static let orderings = ParseMemo<String, [MediaRange]>()

    private static func ordering(_ accept: String) -> [MediaRange] {
        let ranges = split(accept, on: UInt8(ascii: ",")).map { MediaRange(String($0)) }
        return ranges.enumerated().sorted { first, second in
            let (a, b) = (first.element, second.element)
            if a.quality != b.quality { return a.quality > b.quality }
            if a.specificity != b.specificity { return a.specificity > b.specificity }
            return first.offset < second.offset
        }.map(\.element)
    }

    /// `text` cut at `separator` outside double quotes: a quoted parameter keeps its `;` and `,`
    /// (`for="application/vnd.pgrst.object+json;nulls=stripped"`). Empty pieces are dropped.
    private static func split(_ text: String, on separator: UInt8) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.utf8.startIndex
        var quoted = false
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == separator, !quoted {
                pieces.append(text[start..<index])
                start = text.utf8.index(after: index)
            }
        }
        pieces.append(text[start...])
        return pieces.filter { !$0.isEmpty }
    }

    /// Parameters make a range more specific, each `*` less (as PostgREST orders `Accept`).
    private var specificity: Int { parameters.count - type.utf8.reduce(0) { $0 + ($1 == UInt8(ascii: "*") ? 1 : 0) } }

    /// The type a handler is looked up by: `vnd.pgrst.array` without stripped nulls is plain JSON.
    var handlerLookupType: String {
        type == "application/vnd.pgrst.array+json" || type == "application/vnd.pgrst.array" ? "application/json" : type
    }
}

extension String {
    /// Without surrounding double quotes (a quoted media type parameter).
    fileprivate var withoutQuotes: String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
