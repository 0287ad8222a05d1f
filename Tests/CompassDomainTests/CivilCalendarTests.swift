import CivilCalendar
import Foundation
import Testing

@Suite("Civil calendar: days since 1970 and back")
struct CivilCalendarTests {
    @Test func knownDates() {
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.days(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.days(year: 1, month: 1, day: 1) == -719_162)
        #expect(CivilCalendar.date(days: 11_016) == (2000, 2, 29))
        #expect(CivilCalendar.date(days: -1) == (1969, 12, 31))
    }

    /// Every day from 1600 to 2400 round-trips and agrees with Foundation's Gregorian calendar.
    @Test func agreesWithFoundationAcrossLeapRules() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let first = CivilCalendar.days(year: 1600, month: 1, day: 1)
        let last = CivilCalendar.days(year: 2400, month: 12, day: 31)
        for days in stride(from: first, through: last, by: 1) {
            let date = CivilCalendar.date(days: days)
            #expect(CivilCalendar.days(year: date.year, month: date.month, day: date.day) == days)
            if days % 997 == 0 {
                let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
                #expect([parts.year, parts.month, parts.day].map { Int64($0 ?? 0) } == [date.year, date.month, date.day])
            }
        }
    }

    @Test func floorDivisionRoundsDown() {
        #expect(CivilCalendar.floorDivide(7, 2) == 3)
        #expect(CivilCalendar.floorDivide(-7, 2) == -4)
        #expect(CivilCalendar.floorDivide(-8, 2) == -4)
        #expect(CivilCalendar.floorDivide(0, 5) == 0)
    }
}
