import Foundation
@testable import CompassDomain

/// Shared values for the domain tests: a fixed "now" and readable UUIDs.
enum Fixture {
    /// Sunday 8 February 2026, 12:00 UTC.
    static let now = date("2026-02-08T12:00:00Z")

    /// A UUID whose last group is `n`, so ids sort the way their numbers do.
    static func uuid(_ n: Int) -> UUID {
        let digits = String(n)
        let tail = String(repeating: "0", count: 12 - digits.count) + digits
        return UUID(uuidString: "00000000-0000-0000-0000-\(tail)")!
    }

    /// `now` minus `seconds`.
    static func ago(_ seconds: TimeInterval) -> Date {
        now.addingTimeInterval(-seconds)
    }

    /// `now` minus whole days.
    static func daysAgo(_ days: Double) -> Date {
        ago(days * 86_400)
    }

    /// Parses a timestamp literal; the tests only pass valid ones.
    static func date(_ text: String) -> Date {
        guard let date = CompassTimestamp.date(from: text) else { fatalError("bad fixture timestamp \(text)") }
        return date
    }

    static let utc = CompassCalendar.utc

    /// The JSON object `value` encodes to.
    static func jsonObject(_ value: some Encodable) throws -> [String: Any] {
        let data = try JSONEncoder().encode(value)
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
