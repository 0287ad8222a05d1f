/// Writes ISO 8601 timestamps straight into a string's bytes: `YYYY-MM-DDTHH:MM:SS`, a
/// fraction of 0, 3 or 6 digits, then `Z` or a numeric offset `±HH:MM`. Years before 1 are
/// ISO's (`0000` is 1 BC, then `-0001`), or with `postgresEra` PostgreSQL's (`0001 … BC`),
/// which is all it reads.
///
/// ```swift
/// CivilTimestampText.format(1_770_552_305_250, fractionDigits: 3, zone: .utcZ)   // "2026-02-08T12:05:05.250Z"
/// ```
/// The one writer behind the Postgres client's bind text, the domain's JSON dates and the
/// realtime `commit_timestamp`; each of them only chooses the precision and the zone.
public enum CivilTimestampText {
    /// How the zone is written.
    public enum Zone: Sendable, Hashable {
        /// UTC as `Z`.
        case utcZ
        /// The wall-clock time at this offset from UTC, written `±HH:MM` (seconds of the offset dropped).
        case offset(seconds: Int64)
    }

    /// Writes `value`, counted in 10^-`fractionDigits` seconds since 1970 UTC (`fractionDigits` 0...9).
    ///
    /// A value within two days of `Int64`'s bounds is written as that bound, rather than
    /// overflowing the day arithmetic (in microseconds that is 292,000 years from 1970, past
    /// every year the reader takes).
    public static func format(_ value: Int64, fractionDigits: Int, zone: Zone, postgresEra: Bool = false) -> String {
        let scale = powerOfTen(fractionDigits)
        let margin = 2 * 86_400 * scale
        let value = min(max(value, Int64.min + margin), Int64.max - margin)
        let offsetSeconds: Int64
        switch zone {
        case .utcZ: offsetSeconds = 0
        case .offset(let seconds): offsetSeconds = seconds
        }
        let local = value + offsetSeconds * scale
        let unitsPerDay = 86_400 * scale
        let days = CivilCalendar.floorDivide(local, unitsPerDay)
        let inDay = local - days * unitsPerDay
        let secondOfDay = inDay / scale
        let (year, month, day) = CivilCalendar.date(days: days)
        return String(unsafeUninitializedCapacity: 48) { buffer in
            var writer = Writer(buffer: buffer)
            // PostgreSQL has no year 0 and reads no negative years: 1 BC is the year 0 of the count.
            let beforeChrist = postgresEra && year <= 0
            writer.year(beforeChrist ? 1 - year : year)
            writer.byte(UInt8(ascii: "-"))
            writer.digits(month, 2)
            writer.byte(UInt8(ascii: "-"))
            writer.digits(day, 2)
            writer.byte(UInt8(ascii: "T"))
            writer.digits(secondOfDay / 3_600, 2)
            writer.byte(UInt8(ascii: ":"))
            writer.digits(secondOfDay / 60 % 60, 2)
            writer.byte(UInt8(ascii: ":"))
            writer.digits(secondOfDay % 60, 2)
            if fractionDigits > 0 {
                writer.byte(UInt8(ascii: "."))
                writer.digits(inDay % scale, fractionDigits)
            }
            switch zone {
            case .utcZ:
                writer.byte(UInt8(ascii: "Z"))
            case .offset(let seconds):
                writer.byte(seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                let minutes = abs(seconds) / 60
                writer.digits(minutes / 60, 2)
                writer.byte(UInt8(ascii: ":"))
                writer.digits(minutes % 60, 2)
            }
            if beforeChrist {
                for byte in " BC".utf8 { writer.byte(byte) }
            }
            return writer.count
        }
    }

    private static func powerOfTen(_ exponent: Int) -> Int64 {
        var value: Int64 = 1
        for _ in 0..<max(0, min(exponent, 9)) { value *= 10 }
        return value
    }

    /// Appends ASCII into a buffer sized for the longest timestamp.
    private struct Writer {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        mutating func byte(_ value: UInt8) {
            buffer[count] = value
            count += 1
        }

        /// `value` (non-negative) in exactly `width` digits, zero-padded on the left.
        mutating func digits(_ value: Int64, _ width: Int) {
            var rest = value
            var position = count + width - 1
            while position >= count {
                buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                position -= 1
            }
            count += width
        }

        /// Four digits for years 0...9999; a sign and as many digits as needed outside them.
        mutating func year(_ value: Int64) {
            if value < 0 { byte(UInt8(ascii: "-")) }
            let magnitude = abs(value)
            var width = 4
            var limit: Int64 = 10_000
            while magnitude >= limit, width < 18 {
                width += 1
                limit *= 10
            }
            digits(magnitude, width)
        }
    }
}
