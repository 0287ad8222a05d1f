/// The fields of an ISO 8601 or PostgreSQL timestamp text, read in one pass over its bytes.
///
/// The grammar is the union of what PostgreSQL writes and what ISO 8601 clients send:
/// `YYYY-MM-DD` (a year past 9999 in full), then optionally `T`/`t`/space and
/// `HH:MM[:SS[(.|,)fraction]]`, then optionally `Z`/`z` or `±HH[[:]MM[[:]SS]]`, then
/// optionally ` BC` (PostgreSQL's years before 1: `0001 BC` is the year 0 of the count).
/// Dates are checked against the calendar (no 31 February); `24:00:00` and a leap second
/// `:60` are read as PostgreSQL reads them (the next day, the next minute). Each codec — the Postgres client's, the domain's, the
/// realtime filters' — is a policy over this one reading: whether the time and the offset
/// are required, and which precision it keeps.
///
/// ```swift
/// let parts = CivilTimestamp(parsing: "2026-02-08 12:05:05.25+00")
/// parts?.utcMicroseconds   // 1_770_552_305_250_000
/// ```
public struct CivilTimestamp: Sendable, Hashable {
    /// Days since 1970-01-01 of the written date.
    public var days: Int64
    /// The written time of day in whole seconds (0 without a time; 86_400 for `24:00:00`).
    public var secondOfDay: Int64
    /// The written fraction of the second in nanoseconds; past nine digits, the whole microseconds
    /// PostgreSQL reads from it (up to 1,000,000,000: `.9999999` is the next second).
    public var nanosecond: Int64
    /// True when a time of day was written.
    public var hasTime: Bool
    /// The written offset from UTC in seconds; nil when none was written.
    public var offsetSeconds: Int64?

    /// Reads `text`; nil unless all of it matches the grammar above and is at most 128 bytes
    /// (PostgreSQL stops reading date and time input at about that length; the realtime filters
    /// leave anything longer to Postgres itself).
    public init?(parsing text: some StringProtocol) {
        guard text.utf8.count <= 128 else { return nil }
        var text = String(text)
        guard let parsed = text.withUTF8({ CivilTimestamp(utf8: $0) }) else { return nil }
        self = parsed
    }

    /// Reads UTF-8 bytes; nil unless all of them match the grammar above.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        var scanner = Scanner(bytes: bytes)
        guard let parsed = scanner.timestamp() else { return nil }
        self = parsed
    }

    init(days: Int64, secondOfDay: Int64 = 0, nanosecond: Int64 = 0, hasTime: Bool, offsetSeconds: Int64? = nil) {
        self.days = days
        self.secondOfDay = secondOfDay
        self.nanosecond = nanosecond
        self.hasTime = hasTime
        self.offsetSeconds = offsetSeconds
    }

    /// Whole seconds since 1970 of the written wall-clock time, ignoring any offset.
    public var localSeconds: Int64 { days * 86_400 + secondOfDay }

    /// Whole seconds since 1970 in UTC: the written offset applied, none taken as UTC.
    public var utcSeconds: Int64 { localSeconds - (offsetSeconds ?? 0) }

    /// Microseconds since 1970 in UTC, extra digits rounded as PostgreSQL rounds them.
    public var utcMicroseconds: Int64 { utcSeconds * 1_000_000 + microsecond }

    /// Microseconds since 1970 of the wall-clock time, any offset ignored (PostgreSQL's `timestamp`).
    public var localMicroseconds: Int64 { localSeconds * 1_000_000 + microsecond }

    /// The fraction in whole microseconds as PostgreSQL's reader makes it: the fraction read as
    /// a `double`, times a million, `rint` (so `.0000025` is 2, `.0000035` is 4).
    private var microsecond: Int64 {
        Int64((Double(nanosecond) / 1_000_000_000 * 1_000_000).rounded(.toNearestOrEven))
    }

    /// Seconds since 1970 in UTC as a `TimeInterval` would hold them (what `Date` is built from).
    public var utcTimeInterval: Double { Double(utcSeconds) + Double(nanosecond) / 1_000_000_000 }
}

extension CivilTimestamp {
    /// A cursor over UTF-8 bytes; every method consumes only on success.
    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        mutating func timestamp() -> CivilTimestamp? {
            guard let writtenYear = year(), take(UInt8(ascii: "-")), let month = number(digits: 2),
                take(UInt8(ascii: "-")), let day = number(digits: 2)
            else { return nil }
            var parsed = CivilTimestamp(days: 0, hasTime: false)
            if index < bytes.count, !atEra {
                guard take(UInt8(ascii: "T")) || take(UInt8(ascii: "t")) || take(UInt8(ascii: " ")),
                    case let (secondOfDay, nanosecond)? = time()
                else { return nil }
                (parsed.secondOfDay, parsed.nanosecond, parsed.hasTime) = (secondOfDay, nanosecond, true)
                if index < bytes.count, !atEra {
                    guard let offset = offsetSeconds() else { return nil }
                    parsed.offsetSeconds = offset
                }
            }
            // PostgreSQL writes years before 1 as `0044-03-15 BC`; there is no year 0.
            let beforeChrist = atEra
            if beforeChrist { index += 3 }
            let year = beforeChrist ? 1 - writtenYear : writtenYear
            guard index == bytes.count, (1...(beforeChrist ? Self.earliestYearBC : Self.latestYear)).contains(writtenYear),
                (1...12).contains(month),
                (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day)
            else { return nil }
            parsed.days = CivilCalendar.days(year: year, month: month, day: day)
            return parsed
        }

        /// PostgreSQL's earliest year: it reads dates from 4714-11-24 BC (Julian day 0).
        static let earliestYearBC: Int64 = 4_714
        /// The latest year read: microseconds since 1970 overflow `Int64` past 294,246 (PostgreSQL
        /// counts from 2000 and reaches 294,276; nobody stores those).
        static let latestYear: Int64 = 200_000

        /// The year: four digits or more (PostgreSQL writes years past 9999 in full), at most six.
        private mutating func year() -> Int64? {
            var digits = 0
            while index + digits < bytes.count, digit(at: index + digits) != nil { digits += 1 }
            guard (4...6).contains(digits) else { return nil }
            return number(digits: digits)
        }

        /// Whether ` BC` (any case) ends the text here.
        private var atEra: Bool {
            guard bytes.count - index == 3, bytes[index] == UInt8(ascii: " ") else { return false }
            return bytes[index + 1] | 0x20 == UInt8(ascii: "b") && bytes[index + 2] | 0x20 == UInt8(ascii: "c")
        }

        /// `HH:MM[:SS[.fraction]]` as the second of the day (86_400 for 24:00) and nanoseconds.
        private mutating func time() -> (Int64, Int64)? {
            guard let hour = number(digits: 2), take(UInt8(ascii: ":")), let minute = number(digits: 2), minute < 60
            else { return nil }
            var second: Int64 = 0
            var nanoseconds: Int64 = 0
            if take(UInt8(ascii: ":")) {
                guard let value = number(digits: 2), value <= 60 else { return nil }
                second = value
                if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                    guard let fraction = fractionNanoseconds() else { return nil }
                    nanoseconds = fraction
                }
            }
            // PostgreSQL's rule: 24:00:00 is the end of the day, nothing later.
            guard hour < 24 || (hour == 24 && minute == 0 && second == 0 && nanoseconds == 0) else { return nil }
            return ((hour * 60 + minute) * 60 + second, nanoseconds)
        }

        /// The fraction's digits as nanoseconds. Past nine digits it is what PostgreSQL makes of
        /// them: the whole fraction read as a `double`, then whole microseconds (`rint`), so digits
        /// beyond a double's precision change nothing, as there.
        private mutating func fractionNanoseconds() -> Int64? {
            let start = index
            var value: Int64 = 0
            var count = 0
            while index < bytes.count, let digit = digit(at: index) {
                if count < 9 { value = value * 10 + digit }
                count += 1
                index += 1
            }
            guard count > 0 else { return nil }
            if count > 9 {
                let fraction = Double("0." + String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)) ?? 0
                return Int64((fraction * 1_000_000).rounded(.toNearestOrEven)) * 1_000
            }
            for _ in count..<9 { value *= 10 }
            return value
        }

        /// `Z`, or `±HH`, `±HHMM`, `±HH:MM`, `±HH:MM:SS` (PostgreSQL writes seconds for historic zones).
        private mutating func offsetSeconds() -> Int64? {
            if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) { return 0 }
            let sign: Int64
            if take(UInt8(ascii: "+")) {
                sign = 1
            } else if take(UInt8(ascii: "-")) {
                sign = -1
            } else {
                return nil
            }
            // PostgreSQL's limit: "time zone displacement out of range" past 15:59:59.
            guard let hours = number(digits: 2), hours < 16 else { return nil }
            var total = hours * 3_600
            for multiplier: Int64 in [60, 1] where index < bytes.count && !atEra {
                _ = take(UInt8(ascii: ":"))
                guard let value = number(digits: 2), value < 60 else { return nil }
                total += value * multiplier
            }
            return sign * total
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func number(digits: Int) -> Int64? {
            guard index + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for position in index..<index + digits {
                guard let digit = digit(at: position) else { return nil }
                value = value * 10 + digit
            }
            index += digits
            return value
        }

        private func digit(at position: Int) -> Int64? {
            let byte = bytes[position]
            return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int64(byte &- UInt8(ascii: "0")) : nil
        }
    }
}
