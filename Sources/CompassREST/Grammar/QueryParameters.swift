/// Everything PostgREST reads from a request's query string, parsed and still unchecked
/// against the schema (that is the planner's job).
///
/// ```swift
/// let parameters = try QueryParameters(query: "select=*&logged_by=eq.X&order=occurred_at.desc&limit=50")
/// ```
public struct QueryParameters: Sendable, Hashable {
    /// An embed path: `[]` for the top-level table, `["actor"]` for `actor.…` parameters.
    public typealias EmbedPath = [String]

    /// `select=` (default `*`).
    public var select: [SelectItem] = [.column(SelectColumn(field: FieldReference(name: "*"), alias: nil, cast: nil))]
    /// Column filters, each with the embed it applies to.
    public var filters: [(path: EmbedPath, filter: Filter)] = []
    /// `and=`/`or=` trees, each with its embed.
    public var logic: [(path: EmbedPath, tree: LogicTree)] = []
    /// `order=` per embed.
    public var order: [EmbedPath: [OrderTerm]] = [:]
    /// `limit=` per embed.
    public var limits: [EmbedPath: Int] = [:]
    /// `offset=` per embed.
    public var offsets: [EmbedPath: Int] = [:]
    /// Relation names that stood for an aliased embed's key (see ``resolveLegacyTargetNames()``).
    public var legacyTargets: [(relation: String, alias: String)] = []
    /// `columns=`: the body keys an insert or update uses.
    public var columns: [String]?
    /// `on_conflict=`: the unique columns an upsert resolves on.
    public var onConflict: [String]?
    /// For `GET /rpc/fn`: parameters without an operator are the function's arguments.
    public var arguments: [(name: String, value: String)] = []

    public init() {}

    /// How deep `select=` embeds nest unless configured (`COMPASS_REST_MAX_EMBED_DEPTH`).
    public static let defaultMaximumEmbedDepth = 8

    /// Parses a raw (still percent-encoded) query string. `isRPCRead` makes operator-less
    /// parameters function arguments instead of malformed filters; `select=` may nest embeds
    /// `maximumEmbedDepth` levels deep.
    public init(query: String?, isRPCRead: Bool = false, maximumEmbedDepth: Int = Self.defaultMaximumEmbedDepth) throws(RESTError) {
        try self.init(pairs: QueryString.pairs(query), isRPCRead: isRPCRead, maximumEmbedDepth: maximumEmbedDepth)
    }

    /// Parses decoded `(name, value)` pairs, as ``QueryString`` splits them.
    init(pairs: [(name: String, value: String?)], isRPCRead: Bool, maximumEmbedDepth: Int) throws(RESTError) {
        for (name, value) in pairs {
            guard let value else { continue }
            // Most names are a plain column or keyword: nothing to split.
            let isDotted = name.utf8.contains(UInt8(ascii: "."))
            let last = isDotted ? name.split(separator: ".", omittingEmptySubsequences: false).last.map(String.init) ?? name : name
            let path = isDotted ? Self.path(of: name) : []
            switch name {
            case "select":
                // An empty `select=` is every column, as PostgREST reads it.
                let items = try SelectParser.parseRemembered(value, maximumDepth: maximumEmbedDepth)
                if !items.isEmpty { select = items }
                continue
            case "columns":
                columns = try Self.names(value, subject: "columns parameter")
                continue
            case "on_conflict":
                onConflict = try Self.names(value, subject: "on_conflict parameter")
                continue
            default: break
            }
            switch last {
            case "order":
                order[path] = try Self.orders.value(for: value) { (value) throws(RESTError) in try OrderParser.parse(value) }
            case "limit":
                if let number = Int(value.trimmingSpaces) { limits[path] = number }
            case "offset":
                if let number = Int(value.trimmingSpaces) { offsets[path] = number }
            case "and", "or":
                logic.append(try LogicParser.parse(key: name, value: value))
            default:
                do {
                    let parsed = try FilterParser.filter(key: name, value: value)
                    filters.append((parsed.path, parsed.filter))
                } catch {
                    guard isRPCRead else { throw error }
                    arguments.append((name, value))
                }
            }
        }
        resolveLegacyTargetNames()
    }

    /// `order=` values parsed before (apps send the same few).
    private static let orders = ParseMemo<String, [OrderTerm]>()

    /// The embed path of a reserved key: `actor.order` → `["actor"]`; `not.` is not part of it.
    private static func path(of name: String) -> EmbedPath {
        var segments = name.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        segments.removeLast()
        if segments.last == "not" { segments.removeLast() }
        return segments
    }

    /// `a,"b",c`: names as `columns=` and `on_conflict=` list them.
    static func names(_ text: String, subject: String) throws(RESTError) -> [String] {
        var scanner = GrammarScanner(text, subject: subject)
        var names: [String] = []
        while true {
            scanner.skipWhitespace()
            names.append(try scanner.fieldName())
            scanner.skipWhitespace()
            if scanner.isAtEnd { return names }
            guard scanner.current == "," else { throw scanner.failure(expecting: ["\",\"", "end of input"]) }
            scanner.position += 1
        }
    }

    public static func == (lhs: QueryParameters, rhs: QueryParameters) -> Bool {
        lhs.select == rhs.select && lhs.filters.elementsEqual(rhs.filters, by: { $0.path == $1.path && $0.filter == $1.filter })
            && lhs.logic.elementsEqual(rhs.logic, by: { $0.path == $1.path && $0.tree == $1.tree })
            && lhs.order == rhs.order && lhs.limits == rhs.limits && lhs.offsets == rhs.offsets
            && lhs.columns == rhs.columns && lhs.onConflict == rhs.onConflict
            && lhs.arguments.elementsEqual(rhs.arguments, by: { $0 == $1 })
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(select)
        hasher.combine(filters.count)
        hasher.combine(order)
    }
}
