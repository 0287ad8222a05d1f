import Foundation

/// The `changes` of a parent activity: before/after values per field, stored as `jsonb`.
///
/// ```swift
/// let changes = ParentActivityChanges([ParentActivityChange(field: "points", before: 10, after: 15)])
/// changes.jsonText   // {"points":{"after":15,"before":10}}
/// ```
///
/// The JSON is an object keyed by field, each value `{"before": …, "after": …}`
/// with either side absent or null. A value of any other shape is read as the
/// field's new value, so rows written by older clients still display.
public struct ParentActivityChanges: Sendable, Hashable, Codable {
    /// The changes, sorted by field.
    public private(set) var changes: [ParentActivityChange]

    /// Creates the set; a repeated field keeps its last change.
    public init(_ changes: [ParentActivityChange] = []) {
        var byField: [String: ParentActivityChange] = [:]
        for change in changes { byField[change.field] = change }
        self.changes = byField.values.sorted { $0.field < $1.field }
    }

    /// Reads the `jsonb` column's text.
    public init(jsonText: String) throws {
        self = try JSONDecoder().decode(ParentActivityChanges.self, from: Data(jsonText.utf8))
    }

    /// Whether no field changed.
    public var isEmpty: Bool { changes.isEmpty }

    /// The change of `field`, if any.
    public subscript(field: String) -> ParentActivityChange? {
        changes.first { $0.field == field }
    }

    /// Compact JSON with sorted keys, ready to bind to the `jsonb` column.
    public var jsonText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Reads the object keyed by field.
    public init(from decoder: any Decoder) throws {
        let object = try decoder.singleValueContainer().decode([String: JSONValue].self)
        self.init(object.map { field, value in
            if case .object(let sides) = value, sides.keys.contains("before") || sides.keys.contains("after") {
                return ParentActivityChange(field: field, before: sides["before"].flatMap(Self.nonNull),
                                            after: sides["after"].flatMap(Self.nonNull))
            }
            return ParentActivityChange(field: field, before: nil, after: Self.nonNull(value))
        })
    }

    /// Writes the object keyed by field; an absent side is left out.
    public func encode(to encoder: any Encoder) throws {
        var object: [String: JSONValue] = [:]
        for change in changes {
            var sides: [String: JSONValue] = [:]
            if let before = change.before { sides["before"] = before }
            if let after = change.after { sides["after"] = after }
            object[change.field] = .object(sides)
        }
        var container = encoder.singleValueContainer()
        try container.encode(object)
    }

    private static func nonNull(_ value: JSONValue) -> JSONValue? {
        value == .null ? nil : value
    }
}
