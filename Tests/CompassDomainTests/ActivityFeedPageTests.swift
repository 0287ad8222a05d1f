import Foundation
import Testing

@testable import CompassDomain

@Suite("ActivityFeed.page builds only the page's events, and gives the page merge + query would")
struct ActivityFeedPageTests {
    /// Rows with clashing dates (same millisecond, sub-millisecond apart), missing dates and schools.
    static func rows(seed: UInt64) -> ([FeedInteractionRow], [FeedStatusChangeRow], [FeedDocumentRow], [UUID: String]) {
        var random = SeededRandom(seed: seed)
        func date() -> Date {
            // Half of them on a coarse grid, a few hundred microseconds off it, so many share a
            // millisecond (ties go by id, as ActivityEvent keeps milliseconds); the rest anywhere.
            random.next() % 2 == 0
                ? Fixture.ago(Double(random.next() % 40) * 86_400 / 4 + Double(random.next() % 400) / 1_000_000)
                : Fixture.ago(Double(random.next() % 10_368_000_000) / 1_000 + Double(random.next() % 1_000) / 1_000_000)
        }
        let schools = (1...8).map { Fixture.uuid(900 + $0) }
        let names = Dictionary(uniqueKeysWithValues: schools.prefix(6).map { ($0, "School \($0.uuidString.suffix(3))") })
        func school() -> UUID? { random.next() % 5 == 0 ? nil : schools[Int(random.next() % 8)] }
        let interactions = (0..<50).map { n in
            FeedInteractionRow(
                id: Fixture.uuid(1_000 + n), schoolId: school(), type: ["email", "call", "text"][n % 3],
                content: n % 4 == 0 ? nil : "Content \(n)", subject: "Subject \(n)",
                occurredAt: random.next() % 3 == 0 ? nil : date(), createdAt: date())
        }
        let statusChanges = (0..<50).map { n in
            FeedStatusChangeRow(
                id: Fixture.uuid(2_000 + n), schoolId: school(), newStatus: "offer_received", notes: n % 2 == 0 ? nil : "N",
                changedAt: date())
        }
        let documents = (0..<50).map { n in
            FeedDocumentRow(id: Fixture.uuid(3_000 + n), title: "Doc \(n)", type: n % 3 == 0 ? nil : "pdf", createdAt: date())
        }
        return (interactions, statusChanges, documents, names)
    }

    @Test(arguments: [1, 2, 3, 42] as [UInt64])
    func everyFilterAndPageMatchesTheFullMerge(seed: UInt64) {
        let (interactions, statusChanges, documents, names) = Self.rows(seed: seed)
        let merged = ActivityFeed.merge(
            interactions: interactions, statusChanges: statusChanges, documents: documents, schoolNames: names, now: Fixture.now)
        for type in [nil] + ActivityEventType.allCases {
            for range in DateRange.allCases {
                for search in ["", "content 1", "  DOC  "] {
                    // Pages past the last, up to where `(page - 1) * 20` no longer fits an Int.
                    for page in Array(1...9) + [Int.max / 20, Int.max / 20 + 2, Int.max] {
                        let query = ActivityFeedQuery(type: type, dateRange: range, searchText: search, page: page)
                        let lazy = ActivityFeed.page(
                            query, interactions: interactions, statusChanges: statusChanges, documents: documents,
                            schoolNames: names, now: Fixture.now)
                        let expected = query.page(of: merged, now: Fixture.now)
                        guard lazy == expected else {
                            Issue.record("seed \(seed) \(String(describing: type)) \(range) '\(search)' page \(page) differs")
                            return
                        }
                    }
                }
            }
        }
    }
}

/// A small deterministic generator (SplitMix64), so failures reproduce.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
