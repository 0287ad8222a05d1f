import Foundation

/// The calendars the domain rules use when the caller does not pass one.
///
/// Rules that depend on day boundaries or month names take a `Calendar`; the
/// default is Gregorian in UTC so that servers, tests and the CLI agree.
public enum CompassCalendar {
    /// A Gregorian calendar in UTC with the POSIX locale.
    public static var utc: Calendar {
        gregorian(in: TimeZone(identifier: "UTC")!)
    }

    /// A Gregorian calendar in `timeZone` with the POSIX locale.
    public static func gregorian(in timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }

    /// The date `days` days before `now`, counted in `calendar` (the cut-off of a "last N days" filter).
    public static func date(daysBefore now: Date, days: Int, in calendar: Calendar) -> Date {
        calendar.date(byAdding: .day, value: -days, to: now) ?? now.addingTimeInterval(-Double(days) * 86_400)
    }
}
