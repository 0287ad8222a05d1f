import CivilCalendar
import Foundation

/// ISO 8601 timestamps with a numeric offset, the way the backend writes them.
///
/// ```swift
/// CompassTimestamp.string(from: date)   // "2026-02-08T14:30:05.250+00:00"
/// CompassTimestamp.date(from: "2026-02-08 14:30:05.25+00")   // PostgreSQL's text form parses too
/// ```
///
/// The domain's policy over the shared reader and writer in `CivilCalendar` (rather than
/// `ISO8601DateFormatter`, so output is identical on every platform and PostgreSQL's
/// `timestamptz` text parses too): an offset is required, output keeps milliseconds.
public enum CompassTimestamp {
    /// Formats `date` with milliseconds and the offset of `timeZone` (`+00:00` rather than `Z`).
    public static func string(from date: Date, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> String {
        let offset = Int64(timeZone.secondsFromGMT(for: date))
        return CivilTimestampText.format(milliseconds(of: date), fractionDigits: 3, zone: .offset(seconds: offset))
    }

    /// Formats microseconds since 1970 in UTC, e.g. `2026-02-08T14:30:05.250001+00:00`, for exact SQL binds.
    public static func microsecondString(fromMicroseconds micros: Int64) -> String {
        CivilTimestampText.format(micros, fractionDigits: 6, zone: .offset(seconds: 0))
    }

    /// Parses an ISO 8601 or PostgreSQL `timestamptz` text; `nil` unless it has a date, a time and an offset.
    ///
    /// Accepts `T`, `t` or a space between date and time, optional seconds and
    /// fraction (any number of digits), and `Z`, `±hh`, `±hhmm`, `±hh:mm` or `±hh:mm:ss`.
    public static func date(from text: String) -> Date? {
        guard let parts = CivilTimestamp(parsing: text), parts.hasTime, parts.offsetSeconds != nil else { return nil }
        return Date(timeIntervalSince1970: parts.utcTimeInterval)
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
}
