/// One field's before and after values in a parent activity.
public struct ParentActivityChange: Sendable, Hashable, Identifiable {
    /// The field that changed, as stored (e.g. `points`, `daily_limit_minutes`).
    public var field: String
    /// The value before; `nil` when the field was set for the first time.
    public var before: JSONValue?
    /// The value after; `nil` when the field was removed.
    public var after: JSONValue?

    /// Creates a change.
    public init(field: String, before: JSONValue?, after: JSONValue?) {
        self.field = field
        self.before = before
        self.after = after
    }

    /// A change's identity is its field.
    public var id: String { field }

    /// The field as a label: `daily_limit_minutes` → `Daily Limit Minutes`.
    public var fieldLabel: String { DisplayLabel.humanized(field) }

    /// The line the detail view shows: `Points: 10 → 15`, `Points: set to 15`, `Points: removed (was 10)`.
    public var description: String {
        switch (before, after) {
        case let (before?, after?): return "\(fieldLabel): \(before.displayText) → \(after.displayText)"
        case let (nil, after?): return "\(fieldLabel): set to \(after.displayText)"
        case let (before?, nil): return "\(fieldLabel): removed (was \(before.displayText))"
        case (nil, nil): return "\(fieldLabel): cleared"
        }
    }
}
