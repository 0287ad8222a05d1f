import CivilCalendar

/// Timestamp and date text as Postgres reads it, to microseconds: the realtime filters'
/// policy over the shared reader and writer in `CivilCalendar`.
enum RealtimeTimestamp {
    /// `YYYY-MM-DD[( |T)HH:MM[:SS[.ffffff]]][Z|±HH[:MM]]` → microseconds since the epoch.
    ///
    /// A date alone is midnight. Without an offset the time is taken as UTC (the worker's
    /// sessions run in UTC); with `honouringOffset == false` (plain `timestamp`) an offset
    /// is ignored, as Postgres does.
    static func microseconds(parsing text: String, honouringOffset: Bool) -> Int64? {
        guard let parts = CivilTimestamp(parsing: text) else { return nil }
        return honouringOffset ? parts.utcMicroseconds : parts.localMicroseconds
    }

    /// `YYYY-MM-DD` → days since 1970-01-01.
    static func days(parsingDate text: String) -> Int64? {
        guard let parts = CivilTimestamp(parsing: text), !parts.hasTime else { return nil }
        return parts.days
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for microseconds since the epoch (the `commit_timestamp` form).
    static func isoMillisecondsUTC(microseconds: Int64) -> String {
        // Truncated, not rounded: a commit never appears to happen later than it did.
        CivilTimestampText.format(CivilCalendar.floorDivide(microseconds, 1_000), fractionDigits: 3, zone: .utcZ)
    }
}
