import Testing

@testable import CompassHTTP

@Suite("Throttled event reports")
struct ThrottledEventTests {
    @Test func theFirstIsReportedAtOnceThenOnePerIntervalWithTheCountSince() {
        let event = ThrottledEvent(interval: .seconds(60))
        let start = ContinuousClock.now
        var reports: [Int] = []
        event.occurred(now: start) { reports.append($0) }
        for second in 1...59 { event.occurred(now: start + .seconds(second)) { reports.append($0) } }
        #expect(reports == [1], "nothing more within the interval")
        event.occurred(now: start + .seconds(60)) { reports.append($0) }
        #expect(reports == [1, 60], "the 59 held back and this one")
        event.occurred(now: start + .seconds(200)) { reports.append($0) }
        #expect(reports == [1, 60, 1])
    }
}
