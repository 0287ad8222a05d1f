import Foundation
import UUIDText

/// A Swift value that can be bound as a query parameter (text format).
public protocol PostgresEncodable: Sendable {
    /// The value as Postgres's text input function reads it.
    var postgresText: String { get }
}

extension String: PostgresEncodable {
    public var postgresText: String { self }
}

extension Substring: PostgresEncodable {
    public var postgresText: String { String(self) }
}

extension Int: PostgresEncodable {
    public var postgresText: String { String(self) }
}

extension Int16: PostgresEncodable {
    public var postgresText: String { String(self) }
}

extension Int32: PostgresEncodable {
    public var postgresText: String { String(self) }
}

extension Int64: PostgresEncodable {
    public var postgresText: String { String(self) }
}

extension Double: PostgresEncodable {
    public var postgresText: String {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return String(self)
    }
}

extension Bool: PostgresEncodable {
    public var postgresText: String { self ? "t" : "f" }
}

extension UUID: PostgresEncodable {
    public var postgresText: String { lowercasedText }
}

extension Decimal: PostgresEncodable {
    public var postgresText: String { description }
}

extension Date: PostgresEncodable {
    /// ISO 8601 in UTC with microseconds, which `timestamptz` input reads exactly.
    public var postgresText: String { PostgresTimestamp.format(self) }
}

extension Array: PostgresEncodable where Element: PostgresEncodable {
    /// An array literal such as `{"a","b"}`; every element quoted and escaped.
    public var postgresText: String {
        PostgresArrayLiteral.format(map { Optional($0.postgresText) })
    }
}

/// A `json`/`jsonb` value kept as its JSON text.
public struct PostgresJSON: PostgresEncodable, Hashable {
    /// The JSON document.
    public var text: String

    /// Wraps JSON text.
    public init(text: String) { self.text = text }

    /// Encodes a value with `JSONEncoder`.
    public init(encoding value: some Encodable, encoder: JSONEncoder = JSONEncoder()) throws {
        self.text = String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Decodes the JSON into a value.
    public func decode<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: Data(text.utf8))
    }

    public var postgresText: String { text }
}

/// A calendar date without time or zone (`date`).
public struct PostgresDate: PostgresEncodable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Makes a date from its parts.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public var postgresText: String { description }

    public static func < (lhs: PostgresDate, rhs: PostgresDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
