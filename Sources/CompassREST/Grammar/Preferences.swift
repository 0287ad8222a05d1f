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

    public var representation: Return?
    /// `count=exact` (planned and estimated are answered exactly too).
    public var count: String?
    public var resolution: Resolution?
    public var missing: Missing?
    /// `handling=strict` refuses unknown preferences.
    public var isStrict = false

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
            case "handling" where value == "strict": isStrict = true
            case "handling" where value == "lenient": isStrict = false
            case "tx" where value == "commit" || value == "rollback": break
            case "timezone", "max-affected", "params": break
            default: invalid.append(token)
            }
        }
        if isStrict, !invalid.isEmpty {
            throw .invalidPreferences(invalid)
        }
    }

    /// Whether the total count was asked for.
    public var wantsCount: Bool { count != nil }

    /// The `Preference-Applied` value for what this request honoured.
    func applied(includeResolution: Bool, includeMissing: Bool, includeReturn: Bool) -> String? {
        var parts: [String] = []
        if includeResolution, let resolution { parts.append("resolution=\(resolution.rawValue)") }
        if includeReturn, let representation { parts.append("return=\(representation.rawValue)") }
        if let count { parts.append("count=\(count)") }
        if includeMissing, let missing { parts.append("missing=\(missing.rawValue)") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
