import CivilCalendar
/// Timestamp and date text as Postgres writes and reads it, to microseconds.
enum RealtimeTimestamp {
    /// `YYYY-MM-DD[( |T)HH:MM[:SS[.ffffff]]][Z|±HH[:MM]]` → microseconds since the epoch.
    ///
    /// Without an offset the time is taken as UTC (the worker's sessions run in UTC);
    /// with `honouringOffset == false` (plain `timestamp`) an offset is ignored, as Postgres does.
    static func microseconds(parsing text: String, honouringOffset: Bool) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        guard let days = parseDate(bytes, &index) else { return nil }
        var micros = days * 86_400_000_000
        if index == bytes.count { return micros }
        guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: " ") else { return nil }
        index += 1
        guard let hour = number(bytes, &index, digits: 2), hour <= 24, take(bytes, &index, ":"),
            let minute = number(bytes, &index, digits: 2), minute < 60
        else { return nil }
        var second: Int64 = 0
        var fraction: Int64 = 0
        if take(bytes, &index, ":") {
            guard let parsed = number(bytes, &index, digits: 2), parsed <= 60 else { return nil }
            second = parsed
            if take(bytes, &index, ".") {
                var scale: Int64 = 100_000
                var digitCount = 0
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                    // Postgres rounds beyond microseconds; truncating is close enough for comparisons.
                    if digitCount < 6 { fraction += Int64(bytes[index] - UInt8(ascii: "0")) * scale }
                    scale /= 10
                    digitCount += 1
                    index += 1
                }
                guard digitCount > 0 else { return nil }
            }
        }
        micros += ((hour * 60 + minute) * 60 + second) * 1_000_000 + fraction
        if index == bytes.count { return micros }
        var offsetSeconds: Int64 = 0
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            let sign: Int64 = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(bytes, &index, digits: 2) else { return nil }
            var minutes: Int64 = 0
            if take(bytes, &index, ":") {
                guard let parsed = number(bytes, &index, digits: 2) else { return nil }
                minutes = parsed
            } else if let parsed = number(bytes, &index, digits: 2) {
                minutes = parsed
            }
            if take(bytes, &index, ":") {
                guard number(bytes, &index, digits: 2) != nil else { return nil }
            }
            offsetSeconds = sign * (hours * 3600 + minutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        return honouringOffset ? micros - offsetSeconds * 1_000_000 : micros
    }

    /// `YYYY-MM-DD` → days since 1970-01-01.
    static func days(parsingDate text: String) -> Int64? {
        let bytes = Array(text.utf8)
        var index = 0
        guard let days = parseDate(bytes, &index), index == bytes.count else { return nil }
        return days
    }

    private static func parseDate(_ bytes: [UInt8], _ index: inout Int) -> Int64? {
        guard let year = number(bytes, &index, digits: 4), take(bytes, &index, "-"),
            let month = number(bytes, &index, digits: 2), take(bytes, &index, "-"),
            let day = number(bytes, &index, digits: 2),
            (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day)
        else { return nil }
        return CivilCalendar.days(year: year, month: month, day: day)
    }

    private static func number(_ bytes: [UInt8], _ index: inout Int, digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for offset in 0..<digits {
            let byte = bytes[index + offset]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    private static func take(_ bytes: [UInt8], _ index: inout Int, _ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension RealtimeTimestamp {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ` for microseconds since the epoch (the `commit_timestamp` form).
    static func isoMillisecondsUTC(microseconds: Int64) -> String {
        let millis = microseconds >= 0 ? microseconds / 1000 : (microseconds - 999) / 1000
        var days = millis / 86_400_000
        var rest = millis % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilCalendar.date(days: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let hour = rest / 3_600_000
        let minute = rest / 60_000 % 60
        let second = rest / 1000 % 60
        let milli = rest % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(milli, 3))Z"
    }
}
