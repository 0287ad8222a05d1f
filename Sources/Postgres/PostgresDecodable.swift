import CivilCalendar
import Foundation
import UUIDText

/// A Swift type a column value (text format) can be decoded into.
public protocol PostgresDecodable: Sendable {
    /// Decodes non-NULL text of the given Postgres type; throws a reason (a String) on failure.
    static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Self
    /// The same from the text's UTF-8 bytes, valid only during the call. The default makes a
    /// `String` and calls ``decode(postgresText:type:)``; the hot types read the bytes directly.
    static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> Self
    /// What SQL NULL decodes to; non-optional types refuse it.
    static func decodeNull() throws(PostgresDecodingFailure) -> Self
}

/// Why one value could not be decoded; the row turns it into a ``PostgresDecodingError``.
public struct PostgresDecodingFailure: Error, Sendable {
    /// Human-readable reason, never the value.
    public var reason: String
    /// Wraps a reason.
    public init(_ reason: String) { self.reason = reason }
}

extension PostgresDecodable {
    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> Self {
        try decode(postgresText: String(decoding: bytes, as: UTF8.self), type: type)
    }

    public static func decodeNull() throws(PostgresDecodingFailure) -> Self {
        throw PostgresDecodingFailure("unexpected NULL")
    }
}

extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Self {
        try Wrapped.decode(postgresText: text, type: type)
    }

    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> Self {
        try Wrapped.decode(postgresBytes: bytes, type: type)
    }

    public static func decodeNull() throws(PostgresDecodingFailure) -> Self { nil }
}

extension String: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> String {
        text
    }

    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}

/// Integers accept int2/int4/int8 (and oid) columns and refuse others, so a wrong column is caught.
private let integerTypes: Set<PostgresDataType> = [.int2, .int4, .int8, PostgresDataType(oid: 26)]

private func decodeInteger<T: FixedWidthInteger>(_ text: String, _ type: PostgresDataType) throws(PostgresDecodingFailure) -> T {
    var text = text
    return try text.withUTF8 { bytes in Result { () throws(PostgresDecodingFailure) in try decodeInteger(bytes, type) } }.get()
}

/// Reads an optional `-` and decimal digits, checking for overflow, without building a String.
private func decodeInteger<T: FixedWidthInteger>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ type: PostgresDataType
) throws(PostgresDecodingFailure) -> T {
    guard integerTypes.contains(type) else { throw PostgresDecodingFailure("not an integer column") }
    let negative = bytes.first == UInt8(ascii: "-")
    let digits = negative ? UnsafeBufferPointer(rebasing: bytes.dropFirst()) : bytes
    guard !digits.isEmpty else { throw PostgresDecodingFailure("not an integer") }
    var value: T = 0
    for byte in digits {
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw PostgresDecodingFailure("not an integer") }
        let digit = T(byte &- UInt8(ascii: "0"))
        let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (next, overflow2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
        guard !overflow1, !overflow2 else { throw PostgresDecodingFailure("out of range for \(T.self)") }
        value = next
    }
    return value
}

extension Int: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Int {
        try decodeInteger(text, type)
    }

    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> Int {
        try decodeInteger(bytes, type)
    }
}

extension Int16: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Int16 {
        try decodeInteger(text, type)
    }

    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> Int16 {
        try decodeInteger(bytes, type)
    }
}

extension Int32: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Int32 {
        try decodeInteger(text, type)
    }

    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> Int32 {
        try decodeInteger(bytes, type)
    }
}

extension Int64: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Int64 {
        try decodeInteger(text, type)
    }

    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> Int64 {
        try decodeInteger(bytes, type)
    }
}

extension Double: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Double {
        guard [.float4, .float8, .numeric, .int2, .int4, .int8].contains(type) else {
            throw PostgresDecodingFailure("not a numeric column")
        }
        switch text {
        case "NaN": return .nan
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        default:
            guard let value = Double(text) else { throw PostgresDecodingFailure("not a number") }
            return value
        }
    }
}

extension Decimal: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Decimal {
        guard [.numeric, .int2, .int4, .int8].contains(type) else { throw PostgresDecodingFailure("not a numeric column") }
        guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw PostgresDecodingFailure("not a decimal number")
        }
        return value
    }
}

extension Bool: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Bool {
        guard type == .bool else { throw PostgresDecodingFailure("not a bool column") }
        switch text {
        case "t": return true
        case "f": return false
        default: throw PostgresDecodingFailure("not t or f")
        }
    }
}

extension UUID: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> UUID {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(PostgresDecodingFailure) in try decode(postgresBytes: bytes, type: type) } }
            .get()
    }

    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> UUID {
        guard type == .uuid || type == .text || type == .varchar else { throw PostgresDecodingFailure("not a uuid column") }
        guard let value = UUID(canonicalText: bytes) else { throw PostgresDecodingFailure("not a UUID") }
        return value
    }
}

extension Date: PostgresDecodable {
    public static func decode(
        postgresBytes bytes: UnsafeBufferPointer<UInt8>, type: PostgresDataType
    ) throws(PostgresDecodingFailure) -> Date {
        // The common case, a timestamp with its time, read in place; the rest through the text path.
        if type == .timestamptz || type == .timestamp, let parts = CivilTimestamp(utf8: bytes), parts.hasTime {
            return Date(timeIntervalSince1970: parts.utcTimeInterval)
        }
        return try decode(postgresText: String(decoding: bytes, as: UTF8.self), type: type)
    }

    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> Date {
        switch type {
        case .timestamptz, .timestamp:
            guard let date = PostgresTimestamp.parse(text) else { throw PostgresDecodingFailure("not an ISO timestamp") }
            return date
        case .date:
            // Midnight UTC of the day; `0044-03-15 BC` and `infinity` as the timestamps read them.
            if text == "infinity" || text == "-infinity" { return PostgresTimestamp.parse(text)! }
            guard let parts = CivilTimestamp(parsing: text), !parts.hasTime else {
                throw PostgresDecodingFailure("not an ISO date")
            }
            return Date(timeIntervalSince1970: parts.utcTimeInterval)
        default:
            throw PostgresDecodingFailure("not a timestamp or date column")
        }
    }
}

extension PostgresDate: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> PostgresDate {
        let parts = text.split(separator: "-")
        guard type == .date, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
        else { throw PostgresDecodingFailure("not a date") }
        return PostgresDate(year: year, month: month, day: day)
    }
}

extension PostgresJSON: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> PostgresJSON {
        guard type == .json || type == .jsonb || type == .text else { throw PostgresDecodingFailure("not a json column") }
        return PostgresJSON(text: text)
    }
}

extension Array: PostgresDecodable where Element: PostgresDecodable {
    public static func decode(postgresText text: String, type: PostgresDataType) throws(PostgresDecodingFailure) -> [Element] {
        guard let elementType = PostgresArrayLiteral.elementType(of: type) else {
            throw PostgresDecodingFailure("not an array column")
        }
        guard let items = PostgresArrayLiteral.parse(text) else { throw PostgresDecodingFailure("malformed array literal") }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for item in items {
            if let item {
                result.append(try Element.decode(postgresText: item, type: elementType))
            } else {
                result.append(try Element.decodeNull())
            }
        }
        return result
    }
}
