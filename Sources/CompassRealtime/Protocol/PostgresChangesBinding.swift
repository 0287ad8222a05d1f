/// Which change types a binding asks for.
public enum RealtimeChangeType: String, Sendable, Hashable, CaseIterable {
    case insert = "INSERT"
    case update = "UPDATE"
    case delete = "DELETE"
}

/// One entry of a join's `config.postgres_changes`: event, schema, table and filter.
///
/// ```swift
/// let binding = PostgresChangesBinding(requested: ["event": "INSERT", "schema": "public", "table": "interactions"])
/// binding.replyEntry   // the request echoed, plus "id"
/// ```
public struct PostgresChangesBinding: Sendable, Hashable {
    /// The change type, or nil for `*` (and for unknown spellings, as the clients expect).
    public var changeType: RealtimeChangeType?
    /// The schema; clients default it to `public`.
    public var schema: String
    /// The table, or nil for every table of the schema.
    public var table: String?
    /// The filter as the client wrote it (nil or blank: no filter).
    public var filterText: String?
    /// The id echoed in the reply and listed in `ids`: a non-zero 27-bit hash of the binding.
    public var id: Int
    /// The request's `event`, `schema`, `table` and `filter` members, echoed unchanged.
    public var requested: [String: RealtimeJSON]
    /// Why the binding cannot be served as written (shown in a `system` error), or nil.
    public var shapeError: String?

    /// Reads one requested binding; a malformed one still gets an id so the reply keeps its length.
    public init(requested json: RealtimeJSON) {
        let fields = json.objectValue ?? [:]
        var echoed: [String: RealtimeJSON] = [:]
        for key in ["event", "schema", "table", "filter"] {
            if let value = fields[key] { echoed[key] = value }
        }
        self.requested = echoed
        var problem: String? = json.objectValue == nil ? "a postgres_changes binding must be an object" : nil

        let event = fields["event"]?.stringValue?.uppercased()
        self.changeType = event.flatMap(RealtimeChangeType.init(rawValue:))

        switch fields["schema"] {
        case nil, .null?: self.schema = "public"
        case .string(let name)?: self.schema = name
        default:
            self.schema = ""
            problem = problem ?? "schema must be a string"
        }
        switch fields["table"] {
        case nil, .null?: self.table = nil
        case .string(let name)?: self.table = (name == "*" || name.isEmpty) ? nil : name
        default:
            self.table = nil
            problem = problem ?? "table must be a string"
        }
        switch fields["filter"] {
        case nil, .null?: self.filterText = nil
        case .string(let text)?: self.filterText = text
        default:
            self.filterText = nil
            problem = problem ?? "filter must be a string"
        }
        // Postgres text cannot hold NUL, so such a name or value could only fail later as a
        // database error (libpq would cut the string short); say so plainly instead.
        if problem == nil, [schema, table, filterText].contains(where: { $0?.utf8.contains(0) == true }) {
            problem = "schema, table and filter cannot contain NUL characters (\\u0000)"
        }
        self.shapeError = problem
        self.id = Self.identifier(for: .object(echoed))
    }

    /// The reply's entry: the requested members echoed, plus `id`.
    public var replyEntry: RealtimeJSON {
        var entry = requested
        entry["id"] = .number(String(id))
        return .object(entry)
    }

    /// A readable name for messages: `INSERT public.interactions logged_by=eq.…`.
    public var summary: String {
        var text = "\(changeType?.rawValue ?? "*") \(schema).\(table ?? "*")"
        if let filterText, !filterText.trimmingWhitespace.isEmpty { text += " \(filterText)" }
        return text
    }

    /// True when the binding wants changes of this type.
    public func accepts(_ type: RealtimeChangeType) -> Bool {
        changeType == nil || changeType == type
    }

    /// FNV-1a over the binding's JSON, folded to 27 bits; never 0 (clients read 0 as "no id").
    static func identifier(for binding: RealtimeJSON) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in binding.jsonText.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let folded = Int((hash ^ (hash >> 27) ^ (hash >> 54)) & 0x7FF_FFFF)
        return folded == 0 ? 1 : folded
    }
}
