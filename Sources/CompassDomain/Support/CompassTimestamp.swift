import CivilCalendar
import Foundation

/// ISO 8601 timestamps with a numeric offset, the way the backend writes them.
///
/// ```swift
/// CompassTimestamp.string(from: date)   // "2026-02-08T14:30:05.250+00:00"
/// CompassTimestamp.date(from: "2026-02-08 14:30:05.25+00")   // PostgreSQL's text form parses too
/// ```
///
/// Written by hand rather than with `ISO8601DateFormatter` so that output is
/// identical on every platform and parsing accepts PostgreSQL's `timestamptz`
/// text as well as ISO 8601.
public enum CompassTimestamp {
    /// Formats `date` with milliseconds and the offset of `timeZone` (`+00:00` rather than `Z`).
    public static func string(from date: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> String {
        let milliseconds = self.milliseconds(of: date)
        let offsetSeconds = timeZone.secondsFromGMT(for: date)
        let local = milliseconds + Int64(offsetSeconds) * 1_000
        let days = CivilCalendar.floorDivide(local, 86_400_000)
        let inDay = local - days * 86_400_000
        let (year, month, day) = CivilCalendar.date(days: days)
        let hour = inDay / 3_600_000
        let minute = inDay / 60_000 % 60
        let second = inDay / 1_000 % 60
        let millisecond = inDay % 1_000
        let sign = offsetSeconds < 0 ? "-" : "+"
        let offsetMinutes = abs(offsetSeconds) / 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(millisecond, 3))\(sign)\(pad(Int64(offsetMinutes / 60), 2)):\(pad(Int64(offsetMinutes % 60), 2))"
    }

    /// Formats microseconds since 1970 in UTC, e.g. `2026-02-08T14:30:05.250001+00:00`, for exact SQL binds.
    public static func microsecondString(fromMicroseconds micros: Int64) -> String {
        let days = CivilCalendar.floorDivide(micros, 86_400_000_000)
        let inDay = micros - days * 86_400_000_000
        let (year, month, day) = CivilCalendar.date(days: days)
        let hour = inDay / 3_600_000_000
        let minute = inDay / 60_000_000 % 60
        let second = inDay / 1_000_000 % 60
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
            + ".\(pad(inDay % 1_000_000, 6))+00:00"
    }

    /// Parses an ISO 8601 or PostgreSQL `timestamptz` text; `nil` unless it has a date, a time and an offset.
    ///
    /// Accepts `T`, `t` or a space between date and time, optional seconds and
    /// fraction (any number of digits), and `Z`, `±hh`, `±hhmm` or `±hh:mm`.
    public static func date(from text: String) -> Date? {
        var scanner = TimestampScanner(text)
        return scanner.scan()
    }

    /// Whole milliseconds since 1970 of `date`, rounded to the nearest.
    public static func milliseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }

    /// Whole microseconds since 1970 of `date`, rounded to the nearest (PostgreSQL's precision).
    public static func microseconds(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// `date` rounded to whole milliseconds, so that it survives a trip through `string(from:)`.
    public static func roundedToMilliseconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds(of: date)) / 1_000)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A one-pass reader for `CompassTimestamp.date(from:)`.
private struct TimestampScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    mutating func scan() -> Date? {
        guard let year = number(digits: 4), take("-"), let month = number(digits: 2), take("-"),
              let day = number(digits: 2), (1...12).contains(month),
              (1...daysInMonth(year: year, month: month)).contains(day)
        else { return nil }
        guard take("T") || take("t") || take(" "), let hour = number(digits: 2), take(":"),
              let minute = number(digits: 2), hour < 24, minute < 60
        else { return nil }
        var second: Int64 = 0
        var fraction = 0.0
        if take(":") {
            guard let value = number(digits: 2), value < 60 else { return nil }
            second = value
            if take(".") || take(",") {
                guard let value = fractionDigits() else { return nil }
                fraction = value
            }
        }
        guard let offset = offsetSeconds(), index == bytes.count else { return nil }
        let days = CivilCalendar.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private mutating func take(_ character: Character) -> Bool {
        guard index < bytes.count, bytes[index] == character.asciiValue else { return false }
        index += 1
        return true
    }

    private mutating func number(digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + digits] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 48)
        }
        index += digits
        return value
    }

    /// Reads the fraction's digits; precision stops at nanoseconds, further digits are read and ignored.
    private mutating func fractionDigits() -> Double? {
        var nanoseconds: Int64 = 0
        var count = 0
        while index < bytes.count, (48...57).contains(bytes[index]) {
            if count < 9 {
                nanoseconds = nanoseconds * 10 + Int64(bytes[index] - 48)
                count += 1
            }
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<9 { nanoseconds *= 10 }
        return Double(nanoseconds) / 1_000_000_000
    }

    private mutating func offsetSeconds() -> Int64? {
        if take("Z") || take("z") { return 0 }
        let sign: Int64
        if take("+") { sign = 1 } else if take("-") { sign = -1 } else { return nil }
        guard let hours = number(digits: 2), hours < 24 else { return nil }
        var minutes: Int64 = 0
        if index < bytes.count {
            _ = take(":")
            guard let value = number(digits: 2), value < 60 else { return nil }
            minutes = value
        }
        return sign * (hours * 3_600 + minutes * 60)
    }

    private func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
