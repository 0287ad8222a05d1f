import Testing

@testable import CompassHTTP

/// The address per-address limits count a client against.
@Suite("Counted client address")
struct CountedAddressTests {
    @Test func loopbackAndTrustedProxiesAreNotCountedAndIPv6CountsByItsPrefix() throws {
        let proxies = try TrustedProxies("10.0.0.0/8")
        #expect(proxies.countedAddress(peer: "127.0.0.1") == nil)
        #expect(proxies.countedAddress(peer: "127.8.9.1") == nil)
        #expect(proxies.countedAddress(peer: "::1") == nil)
        #expect(proxies.countedAddress(peer: "::ffff:127.0.0.1") == nil)
        #expect(proxies.countedAddress(peer: "10.1.2.3") == nil)
        #expect(proxies.countedAddress(peer: "::ffff:10.1.2.3") == nil, "a trusted proxy on a dual-stack listener")
        #expect(proxies.countedAddress(peer: "::ffff:203.0.113.7") == "203.0.113.7")
        #expect(proxies.countedAddress(peer: "::ffff:cb00:7107") == "203.0.113.7", "the mapped address written in hex")
        #expect(proxies.countedAddress(peer: nil) == nil)
        #expect(proxies.countedAddress(peer: "203.0.113.7") == "203.0.113.7")
        let one = proxies.countedAddress(peer: "2001:db8:1:2::1")
        #expect(one == "2001:db8:1:2::/64")
        #expect(proxies.countedAddress(peer: "2001:DB8:1:2:ffff::9") == one, "one /64, however it is written")
        #expect(proxies.countedAddress(peer: "2001:db8:1:3::1") != one)
    }

    @Test func behindATrustedProxyTheForwardedClientCounts() throws {
        let proxies = try TrustedProxies("10.0.0.0/8")
        #expect(proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["203.0.113.7"]) == "203.0.113.7")
        #expect(proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["198.51.100.1, 203.0.113.7, 10.0.0.9"]) == "203.0.113.7")
        #expect(proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["::ffff:203.0.113.7"]) == "203.0.113.7")
        // The proxy said for no one (or only for itself and other proxies): not counted, as the proxy is not.
        #expect(proxies.countedAddress(peer: "10.0.0.5") == nil)
        #expect(proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["10.0.0.9"]) == nil)
        // An entry the proxy wrote with a port is its address; one that is no address counts as its text.
        #expect(proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["203.0.113.9:5555"]) == "203.0.113.9")
        #expect(proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["[2001:db8:1:2::1]:443"]) == "2001:db8:1:2::/64")
        #expect(proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["unknown"]) == "unreadable:unknown")
        #expect(proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["::ffff:127.0.0.2"]) == nil, "loopback, as a peer would be")
        // A client that is not a trusted proxy cannot choose whom it counts as.
        #expect(proxies.countedAddress(peer: "203.0.113.7", forwardedFor: ["198.51.100.1"]) == "203.0.113.7")
        #expect(proxies.countedAddress(peer: "203.0.113.7", forwardedFor: ["127.0.0.1"]) == "203.0.113.7")
    }
}
