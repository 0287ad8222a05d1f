import CivilCalendar
import Foundation

/// Fast, allocation-light conversion between `Date` and ISO timestamps as Postgres writes them.
enum PostgresTimestamp {
    /// Parses `YYYY-MM-DD HH:MM:SS[.ffffff][+HH[:MM[:SS]]]` (`T` also accepted); no zone means UTC.
    static func parse(_ text: String) -> Date? {
        if text == "infinity" { return .distantFuture }
        if text == "-infinity" { return .distantPast }
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for offset in 0..<width {
                let byte = bytes[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += width
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2) else { return nil }
        guard index < bytes.count, bytes[index] == 32 || bytes[index] == 84 else { return nil }
        index += 1
        guard let hour = number(2), expect(58), let minute = number(2), expect(58), let second = number(2) else {
            return nil
        }
        var fraction = 0.0
        if expect(46) {
            var scale = 0.1
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
        }
        var offsetSeconds = 0
        if index < bytes.count {
            if bytes[index] == 90 {  // Z
                index += 1
            } else {
                let sign = bytes[index] == 45 ? -1 : 1
                guard bytes[index] == 43 || bytes[index] == 45 else { return nil }
                index += 1
                guard let hours = number(2) else { return nil }
                var minutes = 0
                var seconds = 0
                if expect(58) { minutes = number(2) ?? 0 }
                if expect(58) { seconds = number(2) ?? 0 }
                offsetSeconds = sign * (hours * 3600 + minutes * 60 + seconds)
            }
        }
        guard index == bytes.count, (1...12).contains(month), (1...31).contains(day) else { return nil }
        let days = Int(CivilCalendar.days(year: Int64(year), month: Int64(month), day: Int64(day)))
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `YYYY-MM-DDTHH:MM:SS.ffffffZ`, microsecond precision like Postgres.
    static func format(_ date: Date) -> String {
        if date == .distantFuture { return "infinity" }
        if date == .distantPast { return "-infinity" }
        let micros = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        var seconds = micros / 1_000_000
        var fraction = micros % 1_000_000
        if fraction < 0 {
            fraction += 1_000_000
            seconds -= 1
        }
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = CivilCalendar.date(days: days)
        func pad(_ value: some BinaryInteger, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let time = Int(secondOfDay)
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(time / 3600, 2)):\(pad(time / 60 % 60, 2))"
            + ":\(pad(time % 60, 2)).\(pad(Int(fraction), 6))Z"
    }
}
