import CompassDomain
import Foundation
import Testing

@testable import CompassRealtime
@testable import Postgres

/// The three timestamp codecs are policies over one reader and one writer (CivilCalendar):
/// the same text goes through all three, and they differ only where their policy says so.
@Suite("Timestamps: one reader and writer, three policies")
struct TimestampPolicyTests {
    /// A text and what each policy reads from it, in microseconds since 1970 UTC (nil: rejected).
    struct Reading: Sendable, CustomTestStringConvertible {
        var text: String
        /// `PostgresTimestamp.parse`: time required, no offset means UTC.
        var postgres: Int64?
        /// `CompassTimestamp.date(from:)`: time and offset required.
        var compass: Int64?
        /// `RealtimeTimestamp.microseconds(parsing:honouringOffset: true)`: a date alone is midnight.
        var realtime: Int64?
        var testDescription: String { "\"\(text)\"" }

        init(_ text: String, postgres: Int64?, compass: Int64?, realtime: Int64?) {
            self.text = text
            self.postgres = postgres
            self.compass = compass
            self.realtime = realtime
        }

        init(_ text: String, all value: Int64?) {
            self.init(text, postgres: value, compass: value, realtime: value)
        }
    }

    /// 2026-02-08T12:05:05.25Z.
    static let instant: Int64 = 1_770_552_305_250_000
    static let midnight: Int64 = 1_770_508_800_000_000

    static let readings: [Reading] = [
        Reading("2026-02-08T12:05:05.250+00:00", all: instant),
        Reading("2026-02-08 12:05:05.25+00", all: instant),
        Reading("2026-02-08t07:05:05.250-05", all: instant),
        Reading("2026-02-08T17:35:05.250+05:30", all: instant),
        Reading("2026-02-08T17:35:05.250+0530", all: instant),
        Reading("2026-02-08T12:05:05,25Z", all: instant),
        Reading("2026-02-08T12:05:05.2500001Z", all: instant),
        Reading("2026-02-08T12:05:05.25", postgres: instant, compass: nil, realtime: instant),
        Reading("2026-02-08T12:05Z", all: instant - 5_250_000),
        Reading("2026-02-08", postgres: nil, compass: nil, realtime: midnight),
        Reading("2026-02-08T24:00:00Z", all: midnight + 86_400_000_000),
        Reading("2024-02-29T00:00Z", all: 1_709_164_800_000_000),
        Reading("1900-01-01 00:00:00+00:09:21", all: -2_208_989_361_000_000),
        Reading("0001-01-01 00:00:00+00", all: -62_135_596_800_000_000),
        Reading("2026-02-31 00:00:00+00", all: nil),
        Reading("2025-02-29T00:00Z", all: nil),
        Reading("2026-13-01T00:00:00Z", all: nil),
        Reading("2026-02-08T25:00:00Z", all: nil),
        Reading("2026-02-08T24:00:01Z", all: nil),
        Reading("2026-02-08T12:60:00Z", all: nil),
        Reading("2026-02-08T12:00:00.Z", all: nil),
        Reading("2026-02-08T12:00:00Zjunk", all: nil),
        Reading("2026-02-08T12:00:00+24", all: nil),
        Reading("yesterday", all: nil),
        Reading("", all: nil),
    ]

    @Test("each policy reads the same text as its rules say", arguments: readings)
    func reads(_ reading: Reading) {
        #expect(PostgresTimestamp.parse(reading.text).map(Self.microseconds) == reading.postgres)
        #expect(CompassTimestamp.date(from: reading.text).map(Self.microseconds) == reading.compass)
        #expect(RealtimeTimestamp.microseconds(parsing: reading.text, honouringOffset: true) == reading.realtime)
    }

    @Test("a plain timestamp ignores the offset; a date needs a date alone")
    func realtimeVariants() {
        #expect(RealtimeTimestamp.microseconds(parsing: "2026-02-08T17:35:05.25+05:30", honouringOffset: false)
                == Self.instant + 19_800_000_000)
        #expect(RealtimeTimestamp.days(parsingDate: "2026-02-08") == 20_492)
        #expect(RealtimeTimestamp.days(parsingDate: "2026-02-08T00:00Z") == nil)
    }

    @Test("only the Postgres policy knows infinity")
    func infinity() {
        #expect(PostgresTimestamp.parse("infinity") == .distantFuture)
        #expect(PostgresTimestamp.parse("-infinity") == .distantPast)
        #expect(CompassTimestamp.date(from: "infinity") == nil)
        #expect(RealtimeTimestamp.microseconds(parsing: "infinity", honouringOffset: true) == nil)
        #expect(PostgresTimestamp.format(.distantFuture) == "infinity")
    }

    /// A moment and how each policy writes it.
    struct Writing: Sendable {
        var microseconds: Int64
        var postgres: String
        var compass: String
        var compassMicroseconds: String
        var realtime: String
    }

    static let writings: [Writing] = [
        Writing(
            microseconds: 1_770_552_305_250_001, postgres: "2026-02-08T12:05:05.250001Z",
            compass: "2026-02-08T12:05:05.250+00:00", compassMicroseconds: "2026-02-08T12:05:05.250001+00:00",
            realtime: "2026-02-08T12:05:05.250Z"),
        // Compass rounds to the millisecond; the commit timestamp never moves later, so truncates.
        Writing(
            microseconds: -1, postgres: "1969-12-31T23:59:59.999999Z", compass: "1970-01-01T00:00:00.000+00:00",
            compassMicroseconds: "1969-12-31T23:59:59.999999+00:00", realtime: "1969-12-31T23:59:59.999Z"),
        Writing(
            microseconds: -62_135_596_800_000_000, postgres: "0001-01-01T00:00:00.000000Z",
            compass: "0001-01-01T00:00:00.000+00:00", compassMicroseconds: "0001-01-01T00:00:00.000000+00:00",
            realtime: "0001-01-01T00:00:00.000Z"),
        // The day before: 1 BC, as Postgres writes and reads it (it has no year 0), and as ISO 8601
        // writes it for the apps' JSON (year 0000).
        Writing(
            microseconds: -62_135_683_200_000_000, postgres: "0001-12-31T00:00:00.000000Z BC",
            compass: "0000-12-31T00:00:00.000+00:00", compassMicroseconds: "0000-12-31T00:00:00.000000+00:00",
            realtime: "0000-12-31T00:00:00.000Z"),
    ]

    @Test("each policy writes the same moment at its precision", arguments: writings.indices)
    func writes(_ index: Int) {
        let writing = Self.writings[index]
        let date = Date(timeIntervalSince1970: Double(writing.microseconds) / 1_000_000)
        #expect(PostgresTimestamp.format(date) == writing.postgres)
        #expect(CompassTimestamp.string(from: date) == writing.compass)
        #expect(CompassTimestamp.microsecondString(fromMicroseconds: writing.microseconds) == writing.compassMicroseconds)
        #expect(RealtimeTimestamp.isoMillisecondsUTC(microseconds: writing.microseconds) == writing.realtime)
        // ISO's year 0000 is no year to Postgres: only its own BC spelling reads back.
        guard !writing.postgres.hasSuffix(" BC") else {
            #expect(RealtimeTimestamp.microseconds(parsing: writing.postgres, honouringOffset: true) == writing.microseconds)
            return
        }
        // What one writes, the others read back.
        #expect(PostgresTimestamp.parse(writing.compassMicroseconds) == PostgresTimestamp.parse(writing.postgres))
        #expect(RealtimeTimestamp.microseconds(parsing: writing.postgres, honouringOffset: true) == writing.microseconds)
    }

    static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }
}
