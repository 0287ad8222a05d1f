/// The `Prefer` header, as PostgREST reads it (several headers or comma-separated values).
///
/// ```swift
/// let preferences = try Preferences(headerValues: ["return=representation,count=exact"])
/// ```
public struct Preferences: Sendable, Hashable {
    /// `return=`.
    public enum Return: String, Sendable { case representation, minimal, headersOnly = "headers-only" }
    /// `resolution=` for upserts.
    public enum Resolution: String, Sendable { case mergeDuplicates = "merge-duplicates", ignoreDuplicates = "ignore-duplicates" }
    /// `missing=`: what absent body keys become.
    public enum Missing: String, Sendable { case `default`, null }
    /// `tx=`: how the request's transaction ends.
    public enum Transaction: String, Sendable { case commit, rollback }

    public var representation: Return?
    /// `count=exact`, `planned` or `estimated`.
    public var count: String?
    public var resolution: Resolution?
    public var missing: Missing?
    /// `tx=rollback` runs the request and undoes it; `tx=commit` is the default.
    public var transaction: Transaction?
    /// `max-affected=n`: with `handling=strict`, a write (or call) touching more rows fails and is undone.
    public var maxAffected: Int?
    /// `handling=strict` refuses unknown preferences; nil when the header did not say.
    public var handling: String?
    /// `timezone=America/Los_Angeles`: the request's `TimeZone` (Postgres refuses an unknown one, 22023).
    public var timeZone: String?

    /// Whether `handling=strict` was asked for.
    public var isStrict: Bool { handling == "strict" }

    public init() {}

    /// Parses every `Prefer` value; unknown ones are ignored unless `handling=strict`.
    public init(headerValues: [String]) throws(RESTError) {
        var invalid: [String] = []
        for token in headerValues.flatMap({ $0.split(separator: ",") }).map({ String($0).trimmingSpaces }) where !token.isEmpty {
            // Empty pieces kept: `=` alone must give ["", ""], not [] (parts[0] trapped; found by fuzzing).
            let parts = token.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let value = parts.count == 2 ? parts[1] : ""
            switch parts[0] {
            case "return" where Return(rawValue: value) != nil: representation = Return(rawValue: value)
            case "count" where ["exact", "planned", "estimated"].contains(value): count = value
            case "resolution" where Resolution(rawValue: value) != nil: resolution = Resolution(rawValue: value)
            case "missing" where Missing(rawValue: value) != nil: missing = Missing(rawValue: value)
            case "handling" where value == "strict" || value == "lenient": handling = value
            case "tx" where Transaction(rawValue: value) != nil: transaction = Transaction(rawValue: value)
            case "max-affected" where Int(value).map({ $0 >= 0 }) == true: maxAffected = Int(value)
            case "timezone": timeZone = timeZone ?? value  // the first one counts, as in PostgREST
            case "params": break
            default: invalid.append(token)
            }
        }
        if isStrict, !invalid.isEmpty {
            throw .invalidPreferences(invalid)
        }
    }

    /// Whether the statement counts the total: `count=exact` and `count=estimated`.
    public var wantsCount: Bool { count == "exact" || count == "estimated" }

    /// Whether a read also asks the planner (`EXPLAIN`): `count=planned` takes its estimate as
    /// the total (other requests have none), `count=estimated` the larger of it and the count.
    public var wantsPlannedCount: Bool { count == "planned" || count == "estimated" }

    /// The row limit `max-affected` sets, which only `handling=strict` enforces.
    var enforcedMaxAffected: Int? { isStrict ? maxAffected : nil }

    /// What a request did, for which preferences it reports as applied.
    enum Action {
        case read
        /// An insert; `resolves` when its table has a key (or `on_conflict=`) to resolve upserts on.
        case insert(resolves: Bool)
        case update, delete, call
    }

    /// The `Preference-Applied` value for what this request honoured, in PostgREST's order.
    func applied(to action: Action) -> String? {
        var parts: [String] = []
        var isMutation = true
        var takesMissing = false
        var takesMaxAffected = false
        switch action {
        case .read:
            isMutation = false
        case .insert(let resolves):
            if resolves, let resolution { parts.append("resolution=\(resolution.rawValue)") }
            takesMissing = true
        case .update:
            takesMissing = true
            takesMaxAffected = true
        case .delete:
            takesMaxAffected = true
        case .call:
            isMutation = false
            takesMaxAffected = true
        }
        if takesMissing, let missing { parts.append("missing=\(missing.rawValue)") }
        if isMutation, let representation { parts.append("return=\(representation.rawValue)") }
        if let count { parts.append("count=\(count)") }
        if let transaction { parts.append("tx=\(transaction.rawValue)") }
        if let handling { parts.append("handling=\(handling)") }
        if let timeZone { parts.append("timezone=\(timeZone)") }
        if takesMaxAffected, isStrict, let maxAffected { parts.append("max-affected=\(maxAffected)") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
