import Testing

@testable import CompassRealtime

/// Which limit a join would pass: the total, its address's share, and near the total a tenth of
/// that share (the last fifth of the total is kept for clients that hold a few bindings).
@Suite("Binding limits")
struct BindingLimitsTests {
    let limits = BindingLimits(total: 1000, perAddress: 100)

    @Test func theTotalAndTheAddressShare() {
        #expect(limits.exceeded(adding: 10, total: 990, address: 0) == nil, "up to the total exactly")
        #expect(limits.exceeded(adding: 11, total: 990, address: nil) == .server(1000))
        #expect(limits.exceeded(adding: 50, total: 0, address: 50) == nil)
        #expect(limits.exceeded(adding: 51, total: 0, address: 50) == .address(100))
        #expect(limits.exceeded(adding: 0, total: 5000, address: 5000) == nil, "a re-join that adds nothing")
        #expect(limits.exceeded(adding: -3, total: 5000, address: 5000) == nil)
    }

    @Test func nearTheTotalAnAddressHoldingMuchMayNotGrowButOthersMay() {
        // 800 is four fifths: from there an address may hold 10.
        #expect(limits.exceeded(adding: 10, total: 780, address: 90) == nil, "below four fifths the share applies")
        #expect(limits.exceeded(adding: 1, total: 800, address: 90) == .nearTheTotal(10))
        #expect(limits.exceeded(adding: 5, total: 800, address: 5) == nil, "a client holding a few still joins")
        #expect(limits.exceeded(adding: 6, total: 800, address: 5) == .nearTheTotal(10))
        #expect(limits.exceeded(adding: 50, total: 800, address: nil) == nil, "uncounted peers have the total only")
        #expect(BindingLimits.none.exceeded(adding: 1_000_000, total: 1 << 40, address: 1 << 40) == nil)
    }
}
