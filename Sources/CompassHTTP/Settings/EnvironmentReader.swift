import Logging

/// Reads compass-worker's settings from the environment, with one rule for every variable:
/// surrounding whitespace (spaces, tabs, newlines) is trimmed, and an empty value counts as unset.
///
/// ```swift
/// let environment = EnvironmentReader(ProcessInfo.processInfo.environment)
/// let port = try environment.integer("COMPASS_WORKER_PORT", in: 0...65535) ?? 4000
/// ```
/// Every malformed value throws a ``ConfigurationError`` naming the variable and what is wrong
/// with the value; secrets are read with ``secret(_:)``, whose errors never repeat the value.
public struct EnvironmentReader: Sendable {
    private let variables: [String: String]

    /// Reads from `variables` (usually `ProcessInfo.processInfo.environment`).
    public init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// The trimmed value, or nil when the variable is unset or blank.
    public func string(_ name: String) -> String? {
        guard let raw = variables[name] else { return nil }
        let value = Self.trimmed(raw)
        return value.isEmpty ? nil : value
    }

    /// The names of the set variables that begin with `prefix`, sorted (a family such as
    /// `COMPASS_REST_APP_SETTINGS_*`).
    public func names(withPrefix prefix: String) -> [String] {
        variables.keys.filter { $0.hasPrefix(prefix) && $0.count > prefix.count && string($0) != nil }.sorted()
    }

    /// The trimmed value; a missing one throws.
    public func required(_ name: String) throws(ConfigurationError) -> String {
        guard let value = string(name) else { throw ConfigurationError(name, problem: "is not set") }
        return value
    }

    /// A secret: like ``required(_:)``, but `check` words its problem without the value.
    public func secret(
        _ name: String, check: (String) -> String? = { _ in nil }
    ) throws(ConfigurationError) -> String {
        let value = try required(name)
        if let problem = check(value) { throw ConfigurationError(name, problem: problem) }
        return value
    }

    /// A whole number within `range`.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw ConfigurationError(name, value: text, problem: "is not a whole number in \(Self.describe(range))")
        }
        return number
    }

    /// A whole number of at least 1.
    public func positiveInteger(_ name: String) throws(ConfigurationError) -> Int? {
        try integer(name, in: 1...Int.max)
    }

    /// A whole number of at least 0.
    public func nonNegativeInteger(_ name: String) throws(ConfigurationError) -> Int? {
        try integer(name, in: 0...Int.max)
    }

    /// A positive number of seconds (fractions allowed), as a duration.
    public func seconds(_ name: String) throws(ConfigurationError) -> Duration? {
        guard let text = string(name) else { return nil }
        guard let number = Double(text), number.isFinite, number > 0, number <= 1e9 else {
            throw ConfigurationError(name, value: text, problem: "is not a positive number of seconds")
        }
        return .milliseconds(Int64((number * 1000).rounded()))
    }

    /// `true`/`false` (also `1`/`0`, `yes`/`no`, any case).
    public func boolean(_ name: String) throws(ConfigurationError) -> Bool? {
        guard let text = string(name) else { return nil }
        switch text.lowercased() {
        case "true", "1", "yes", "on": return true
        case "false", "0", "no", "off": return false
        default: throw ConfigurationError(name, value: text, problem: "is not true or false")
        }
    }

    /// A log level (`trace` … `critical`, any case).
    public func logLevel(_ name: String) throws(ConfigurationError) -> Logger.Level? {
        guard let text = string(name) else { return nil }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            let names = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw ConfigurationError(name, value: text, problem: "is not one of \(names)")
        }
        return level
    }

    /// The one trimming rule: Unicode whitespace and newlines at either end.
    static func trimmed(_ text: String) -> String {
        let characters = Substring(text).drop(while: \.isWhitespace)
        return String(characters.reversed().drop(while: \.isWhitespace).reversed())
    }

    private static func describe(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max ? "\(range.lowerBound) or more" : "\(range.lowerBound)…\(range.upperBound)"
    }
}
