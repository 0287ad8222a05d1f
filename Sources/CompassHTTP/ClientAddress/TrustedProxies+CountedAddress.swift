extension TrustedProxies {
    /// The address a client counts against for per-address limits, or nil when it is not counted:
    /// the machine itself (a local proxy, health checks, benchmarks) and trusted proxies speak for
    /// many clients. Behind a trusted proxy the client is the one `X-Forwarded-For` names. An IPv4
    /// address mapped into IPv6 (a dual-stack listener's `::ffff:a.b.c.d`) is that IPv4 address;
    /// another IPv6 address counts as its /64, which one client usually holds whole.
    ///
    /// ```swift
    /// proxies.countedAddress(peer: "::ffff:203.0.113.7")            // "203.0.113.7"
    /// proxies.countedAddress(peer: "2001:db8:1:2::1")                 // "2001:db8:1:2::/64"
    /// proxies.countedAddress(peer: "10.0.0.5", forwardedFor: ["203.0.113.7"])  // "203.0.113.7" when 10.0.0.5 is trusted
    /// ```
    public func countedAddress(peer: String?, forwardedFor: [String] = []) -> String? {
        guard let peer = peer.map(Self.unmapped) else { return nil }
        let client = trusts(peer) ? forwardedClient(forwardedFor) : peer
        guard let client else { return nil }
        guard let bytes = Self.bytes(of: client) else { return client }
        guard !Self.isLoopback(bytes), !trusts(client) else { return nil }
        guard bytes.count == 16 else { return client }
        // Printed as the /64's first address, so one network has one key however its hosts are written.
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// The right-most `X-Forwarded-For` hop that is not a trusted proxy, for counting: an address
    /// with a port (`203.0.113.9:5555`, `[2001:db8::1]:443`, as some proxies write it) is that
    /// address, and a hop that is no address at all (`unknown`) counts as its text, so an
    /// unreadable entry cannot turn counting off. Nil when the proxy names no one else.
    func forwardedClient(_ headerValues: [String]) -> String? {
        let hops = headerValues.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces() }
        for hop in hops.reversed() where !hop.isEmpty {
            let address = Self.withoutPort(hop)
            guard Self.bytes(of: address) != nil else { return "unreadable:" + String(hop.prefix(64)) }
            let unmapped = Self.unmapped(address)
            if !trusts(unmapped) { return unmapped }
        }
        return nil
    }

    /// `a.b.c.d:port` → `a.b.c.d`, `[v6]:port` and `[v6]` → `v6`; anything else as it is.
    static func withoutPort(_ hop: String) -> String {
        if hop.hasPrefix("["), let close = hop.firstIndex(of: "]") { return String(hop[hop.index(after: hop.startIndex)..<close]) }
        if hop.contains("."), let colon = hop.lastIndex(of: ":"), hop.firstIndex(of: ":") == colon { return String(hop[..<colon]) }
        return hop
    }

    /// The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`, `::ffff:cb00:7107`) carries, else `address`.
    static func unmapped(_ address: String) -> String {
        guard address.contains(":"), let bytes = bytes(of: address), bytes.count == 16,
            bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF
        else { return address }
        return bytes.suffix(4).map(String.init).joined(separator: ".")
    }

    /// `127.0.0.0/8` and `::1`.
    static func isLoopback(_ bytes: [UInt8]) -> Bool {
        bytes.count == 4 ? bytes[0] == 127 : bytes.dropLast().allSatisfy { $0 == 0 } && bytes.last == 1
    }
}
