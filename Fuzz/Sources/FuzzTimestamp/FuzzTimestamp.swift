// libFuzzer input function for timestamp text: CivilCalendar's reader and writer (the shared
// module), the realtime filters' policy (RealtimeTimestamp.swift) and the Postgres client's
// (PostgresTimestamp.swift, which decodes every timestamp column read as text).
//
// The first byte picks the mode (modulo 3); the rest is the text (raw bytes for mode 0).
//   0 CivilTimestamp from bytes; what it reads, written back, reads as the same instant
//   1 the realtime policy: timestamptz, timestamp, date, and the commit_timestamp writer
//   2 the Postgres client: parse, format, parse again (years past the reader's range are written but not read)
import CivilCalendar
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data, size > 0 else { return 0 }
    let bytes = UnsafeBufferPointer(start: data + 1, count: size - 1)
    switch data[0] % 3 {
    case 0:
        guard let parts = CivilTimestamp(utf8: bytes) else { return 0 }
        let micros = parts.utcMicroseconds
        _ = (parts.localMicroseconds, parts.utcTimeInterval)
        expectSameInstant(CivilTimestampText.format(micros, fractionDigits: 6, zone: .utcZ, postgresEra: true), micros)
        // An offset in whole minutes is written as it was read.
        if let offset = parts.offsetSeconds, offset % 60 == 0 {
            let written = CivilTimestampText.format(micros, fractionDigits: 6, zone: .offset(seconds: offset), postgresEra: true)
            expectSameInstant(written, micros)
        }
        _ = CivilTimestampText.format(parts.utcSeconds, fractionDigits: 0, zone: .utcZ)
    case 1:
        let text = String(decoding: bytes, as: UTF8.self)
        _ = RealtimeTimestamp.microseconds(parsing: text, honouringOffset: false)
        _ = RealtimeTimestamp.days(parsingDate: text)
        guard let micros = RealtimeTimestamp.microseconds(parsing: text, honouringOffset: true) else { return 0 }
        let written = RealtimeTimestamp.isoMillisecondsUTC(microseconds: micros)
        // ISO's years 0000 and before are not the reader's (it reads Postgres's `BC`).
        expectSameInstant(written, CivilCalendar.floorDivide(micros, 1_000) * 1_000, isoEra: true)
    default:
        let text = String(decoding: bytes, as: UTF8.self)
        guard let date = PostgresTimestamp.parse(text) else { return 0 }
        let written = PostgresTimestamp.format(date)
        // 9999-12-31 24:00 is written as year 10000, and 0000-01-01 with an eastern offset as year -1
        // (Postgres itself has no year 0 and writes BC years as "0001 BC"): the reader takes 0000–9999 only.
        guard let again = PostgresTimestamp.parse(written) else {
            let year = CivilCalendar.date(days: Int64((date.timeIntervalSince1970 / 86_400).rounded(.down))).year
            precondition(year < -4_712 || year > 199_999, "written timestamp does not parse: \(written)")
            return 0
        }
        // Microseconds survive up to Double's precision (tens of microseconds by year 9999, more after).
        let tolerance = max(1e-4, 4 * date.timeIntervalSince1970.ulp)
        precondition(abs(again.timeIntervalSince(date)) <= tolerance, "\(text) came back as \(written)")
    }
    return 0
}

/// `written` reads back as `micros`, unless it fell outside the years the reader takes (4714 BC to 200,000).
private func expectSameInstant(_ written: String, _ micros: Int64, isoEra: Bool = false) {
    guard let again = CivilTimestamp(parsing: written) else {
        let year = CivilCalendar.date(days: CivilCalendar.floorDivide(micros, 86_400_000_000)).year
        precondition(year < (isoEra ? 1 : -4_712) || year > 199_999, "unreadable: \(written)")
        return
    }
    precondition(again.utcMicroseconds == micros, "\(written) reads as \(again.utcMicroseconds), not \(micros)")
}
