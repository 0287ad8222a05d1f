import Foundation
import Testing
@testable import CompassDomain

@Suite("Timestamps: ISO 8601 with offset")
struct TimestampTests {
    @Test("formats milliseconds and a numeric offset")
    func formats() {
        let date = Date(timeIntervalSince1970: 1_770_552_305.25)
        #expect(CompassTimestamp.string(from: date) == "2026-02-08T12:05:05.250+00:00")
        let india = TimeZone(secondsFromGMT: 5 * 3_600 + 30 * 60)!
        #expect(CompassTimestamp.string(from: date, timeZone: india) == "2026-02-08T17:35:05.250+05:30")
        #expect(CompassTimestamp.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000+00:00")
    }

    @Test("parses ISO 8601 and PostgreSQL's timestamptz text", arguments: [
        "2026-02-08T12:05:05.250+00:00", "2026-02-08T12:05:05.25Z", "2026-02-08 12:05:05.250000+00",
        "2026-02-08T17:35:05.250+05:30", "2026-02-08T17:35:05.250+0530", "2026-02-08t07:05:05.250-05",
    ])
    func parses(text: String) {
        #expect(CompassTimestamp.date(from: text) == Date(timeIntervalSince1970: 1_770_552_305.25))
    }

    @Test("rejects text without an offset or with an impossible date", arguments: [
        "2026-02-08T12:05:05", "2026-02-30T12:00:00Z", "2026-13-01T00:00:00Z", "2026-02-08", "2026-02-08T25:00:00Z",
        "2026-02-08T12:00:00Zjunk", "", "yesterday", "2026-02-08T12:00:00.Z",
    ])
    func rejects(text: String) {
        #expect(CompassTimestamp.date(from: text) == nil)
    }

    @Test("accepts a leap day and minutes without seconds")
    func leapDay() {
        #expect(CompassTimestamp.date(from: "2024-02-29T00:00Z") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(CompassTimestamp.date(from: "2025-02-29T00:00Z") == nil)
    }

    @Test("formatting and parsing agree over many dates")
    func roundTrip() {
        for step in stride(from: -2_000_000_000.0, through: 4_000_000_000.0, by: 86_399_999.123) {
            let date = CompassTimestamp.roundedToMilliseconds(Date(timeIntervalSince1970: step))
            #expect(CompassTimestamp.date(from: CompassTimestamp.string(from: date)) == date)
        }
    }

    @Test("microsecond text keeps PostgreSQL's precision")
    func microseconds() {
        #expect(CompassTimestamp.microsecondString(fromMicroseconds: 1_770_552_305_250_001)
                == "2026-02-08T12:05:05.250001+00:00")
        let date = CompassTimestamp.date(from: "2026-02-08 12:05:05.250001+00")!
        #expect(CompassTimestamp.microseconds(of: date) == 1_770_552_305_250_001)
    }

    @Test("snake_case codes become labels")
    func labels() {
        #expect(DisplayLabel.humanized("offer_received") == "Offer Received")
        #expect(DisplayLabel.humanized("committed") == "Committed")
        #expect(DisplayLabel.humanized("NCAA_visit") == "NCAA Visit")
        #expect(DisplayLabel.humanized("__odd__code") == "Odd Code")
        // A space separates words too: each is capitalised.
        #expect(DisplayLabel.humanized("not interested") == "Not Interested")
        #expect(DisplayLabel.humanized("très  intéressé_é") == "Très Intéressé É")
        #expect(DisplayLabel.humanized("") == "")
        #expect(DisplayLabel.humanized("_") == "")
        #expect(DisplayLabel.humanized("a_2nd_try") == "A 2nd Try")
        // Non-ASCII codes take the general path: the first letter of each word upper-cased.
        #expect(DisplayLabel.humanized("école_visit") == "École Visit")
        #expect(DisplayLabel.humanized("über_all") == "Über All")
    }

    @Test("descriptions keep their first 50 characters, not bytes")
    func descriptions() {
        let fifty = String(repeating: "a", count: 50)
        #expect(ActivityFeed.truncatedDescription(fifty) == fifty)
        #expect(ActivityFeed.truncatedDescription(fifty + "b") == fifty)
        // 30 characters of 2 bytes each: 60 bytes, but under 50 characters, so kept whole.
        let accented = String(repeating: "é", count: 30)
        #expect(ActivityFeed.truncatedDescription(accented) == accented)
        // A family emoji is one character of 25 bytes.
        let family = String(repeating: "👨‍👩‍👧‍👦", count: 51)
        #expect(ActivityFeed.truncatedDescription(family) == String(repeating: "👨‍👩‍👧‍👦", count: 50))
        #expect(ActivityFeed.truncatedDescription("") == "")
    }

    @Test("an ASCII description is cut by bytes only where that is the 50th character's end")
    func asciiDescriptionsNearTheCut() {
        let fortyNine = String(repeating: "a", count: 49)
        // CR LF is one character: the 50th is the pair, not the CR alone.
        #expect(ActivityFeed.truncatedDescription(fortyNine + "\r\nbc") == fortyNine + "\r\n")
        // A combining accent after the 50th byte belongs to the 50th character.
        #expect(ActivityFeed.truncatedDescription(fortyNine + "e\u{301}xyz") == fortyNine + "e\u{301}")
        // Long ASCII text, cut many bytes before its end.
        let sentence = String(repeating: "Talked about the roster. ", count: 8)
        #expect(ActivityFeed.truncatedDescription(sentence) == String(sentence.prefix(50)))
        #expect(ActivityFeed.truncatedDescription(sentence).utf8.count == 50)
    }
}

@Suite("Relative time")
struct RelativeTimeTests {
    static let feedCases: [(Double, String)] = [
        (0, "just now"), (59, "just now"), (60, "1m ago"), (5 * 60 + 59, "5m ago"), (3_599, "59m ago"),
        (3_600, "1h ago"), (3 * 3_600 + 1, "3h ago"), (86_399, "23h ago"), (86_400, "1d ago"),
        (2 * 86_400, "2d ago"), (604_799, "6d ago"), (604_800, "Feb 1"), (24 * 86_400, "Jan 15"), (-500, "just now"),
    ]

    @Test("the feed's relative times", arguments: feedCases)
    func feed(secondsAgo: Double, expected: String) {
        #expect(RelativeTime.feed(Fixture.ago(secondsAgo), now: Fixture.now) == expected)
    }

    @Test("older dates use the calendar's time zone for month and day")
    func monthDayTimeZone() {
        let date = Fixture.date("2026-01-15T02:00:00Z")
        #expect(RelativeTime.feed(date, now: Fixture.now) == "Jan 15")
        let newYork = CompassCalendar.gregorian(in: TimeZone(secondsFromGMT: -5 * 3_600)!)
        #expect(RelativeTime.feed(date, now: Fixture.now, calendar: newYork) == "Jan 14")
    }

    @Test("month and day agree with Foundation's calendar, across zones, DST changes and 1970")
    func monthDayMatchesFoundation() {
        let zones = ["UTC", "America/New_York", "Asia/Kolkata", "Pacific/Chatham", "Australia/Lord_Howe"]
        for zone in zones.compactMap(TimeZone.init(identifier:)) {
            let calendar = CompassCalendar.gregorian(in: zone)
            // Every 7h 13m from 1969 to 2031: each hour of the day, both sides of every DST change.
            var seconds = -31_536_000.0
            while seconds < 1_950_000_000 {
                let date = Date(timeIntervalSince1970: seconds)
                let parts = calendar.dateComponents([.month, .day], from: date)
                let expected = "\(RelativeTime.monthAbbreviation(parts.month!)) \(parts.day!)"
                guard RelativeTime.monthDay(date, calendar: calendar) == expected else {
                    Issue.record("\(zone.identifier) \(date): \(RelativeTime.monthDay(date, calendar: calendar)) != \(expected)")
                    return
                }
                seconds += 7 * 3_600 + 13 * 60 + 0.5
            }
        }
    }

    static let compactCases: [(Double, String)] = [
        (5, "5s"), (-3, "0s"), (120, "2m"), (3 * 3_600, "3h"), (2 * 86_400, "2d"), (8 * 86_400, "1w"), (29 * 86_400, "4w"),
    ]

    @Test("the notifications' compact times", arguments: compactCases)
    func compact(secondsAgo: Double, expected: String) {
        #expect(RelativeTime.compact(Fixture.ago(secondsAgo), now: Fixture.now) == expected)
    }
}
