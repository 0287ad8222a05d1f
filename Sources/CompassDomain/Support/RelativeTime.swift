import CivilCalendar
import Foundation

/// Relative time texts: the feed's "5m ago" style and the notifications' compact "5m" style.
public enum RelativeTime {
    /// The Activity Feed's text for `date` seen at `now`.
    ///
    /// Under a minute (or in the future) reads `just now`; then `5m ago`, `3h ago`,
    /// `2d ago` up to a week; older dates read as month and day, `Jan 15`, in
    /// `calendar`'s time zone.
    public static func feed(_ date: Date, now: Date, calendar: Calendar = CompassCalendar.utc) -> String {
        let seconds = now.timeIntervalSince(date)
        if seconds < 60 { return "just now" }
        if seconds < 3_600 { return "\(Int(seconds / 60))m ago" }
        if seconds < 86_400 { return "\(Int(seconds / 3_600))h ago" }
        if seconds < 604_800 { return "\(Int(seconds / 86_400))d ago" }
        return monthDay(date, calendar: calendar)
    }

    /// The notifications' compact text: `5s`, `2m`, `3h`, `2d`, then whole weeks, `3w`.
    ///
    /// Future dates read `0s`.
    public static func compact(_ date: Date, now: Date) -> String {
        let seconds = max(0, now.timeIntervalSince(date))
        if seconds < 60 { return "\(Int(seconds))s" }
        if seconds < 3_600 { return "\(Int(seconds / 60))m" }
        if seconds < 86_400 { return "\(Int(seconds / 3_600))h" }
        if seconds < 604_800 { return "\(Int(seconds / 86_400))d" }
        return "\(Int(seconds / 604_800))w"
    }

    /// `Jan 15`: the abbreviated English month and the day, in `calendar`'s time zone.
    public static func monthDay(_ date: Date, calendar: Calendar = CompassCalendar.utc) -> String {
        guard calendar.identifier == .gregorian else {
            let parts = calendar.dateComponents([.month, .day], from: date)
            return "\(monthAbbreviation(parts.month ?? 1)) \(parts.day ?? 1)"
        }
        // Gregorian day arithmetic directly: `Calendar.dateComponents` cost more than the rest
        // of building a feed event put together.
        let offset = Int64(calendar.timeZone.secondsFromGMT(for: date))
        let localSeconds = Int64(date.timeIntervalSince1970.rounded(.down)) + offset
        let civil = CivilCalendar.date(days: CivilCalendar.floorDivide(localSeconds, 86_400))
        return "\(monthAbbreviation(Int(civil.month))) \(civil.day)"
    }

    /// The English abbreviation of `month` (1 = `Jan`), fixed so output never depends on the host's locale.
    public static func monthAbbreviation(_ month: Int) -> String {
        let names = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return names[min(max(month, 1), 12) - 1]
    }
}
