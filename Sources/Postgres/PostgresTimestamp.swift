import CivilCalendar
import Foundation

/// `Date` ⇄ timestamp text as Postgres writes and reads it: the client's policy over the
/// shared reader and writer in `CivilCalendar`.
///
/// A time is required, a missing offset means UTC (the client's sessions run in UTC), and
/// `infinity`/`-infinity` map to the distant dates; text goes out with microseconds and `Z`.
enum PostgresTimestamp {
    /// Parses `YYYY-MM-DD HH:MM[:SS[.ffffff]][offset]` (`T` also accepted); no zone means UTC.
    static func parse(_ text: String) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        guard let parts = CivilTimestamp(parsing: text), parts.hasTime else { return nil }
        return Date(timeIntervalSince1970: parts.utcTimeInterval)
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, microsecond precision like Postgres.
    static func format(_ date: Date) -> String {
        if date == .distantFuture { return "infinity" }
        if date == .distantPast { return "-infinity" }
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        return CivilTimestampText.format(micros, fractionDigits: 6, zone: .utcZ, postgresEra: true)
    }
}
