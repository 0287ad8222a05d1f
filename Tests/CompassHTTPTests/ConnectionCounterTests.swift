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

    @Test func loopbackAndTrustedProxiesAreNotCountedAndIPv6CountsByItsPrefix() throws {
        let proxies = try TrustedProxies("10.0.0.0/8")
        #expect(ConnectionCounter.countedAddress(of: "127.0.0.1", trusting: proxies) == nil)
        #expect(ConnectionCounter.countedAddress(of: "::1", trusting: proxies) == nil)
        #expect(ConnectionCounter.countedAddress(of: "10.1.2.3", trusting: proxies) == nil)
        #expect(ConnectionCounter.countedAddress(of: "::ffff:10.1.2.3", trusting: proxies) == nil, "a trusted proxy on a dual-stack listener")
        #expect(ConnectionCounter.countedAddress(of: "::ffff:203.0.113.7", trusting: proxies) == "203.0.113.7")
        #expect(ConnectionCounter.countedAddress(of: nil, trusting: proxies) == nil)
        #expect(ConnectionCounter.countedAddress(of: "203.0.113.7", trusting: proxies) == "203.0.113.7")
        let one = ConnectionCounter.countedAddress(of: "2001:db8:1:2::1", trusting: proxies)
        let other = ConnectionCounter.countedAddress(of: "2001:db8:1:2:ffff::9", trusting: proxies)
        #expect(one != nil && one == other, "one /64")
        #expect(ConnectionCounter.countedAddress(of: "2001:db8:1:3::1", trusting: proxies) != one)
    }
}
