import Testing

@testable import CompassHTTP

/// One address cannot take every connection slot; the machine itself and trusted proxies,
/// which speak for many clients, are not counted per address.
@Suite("Connections per address")
struct ConnectionCounterTests {
    @Test func anAddressAtItsShareIsRefusedWhileOthersAreServed() {
        let counter = ConnectionCounter()
        for _ in 0..<3 { #expect(counter.open(limit: 10, address: "203.0.113.7", addressLimit: 3) == .opened) }
        #expect(counter.open(limit: 10, address: "203.0.113.7", addressLimit: 3) == .addressAtLimit)
        #expect(counter.openCount == 3, "a refusal holds no slot")
        #expect(counter.open(limit: 10, address: "198.51.100.2", addressLimit: 3) == .opened)
        // One closes: the address may open one more.
        counter.close(address: "203.0.113.7", addressLimit: 3)
        #expect(counter.open(limit: 10, address: "203.0.113.7", addressLimit: 3) == .opened)
        // The total still binds every address, counted or not.
        for _ in 0..<6 { #expect(counter.open(limit: 10, address: nil, addressLimit: 3) == .opened) }
        #expect(counter.open(limit: 10, address: "192.0.2.1", addressLimit: 3) == .atLimit)
        // No per-address limit at 0.
        let unlimited = ConnectionCounter()
        for _ in 0..<5 { #expect(unlimited.open(limit: 10, address: "203.0.113.7", addressLimit: 0) == .opened) }
    }
}
