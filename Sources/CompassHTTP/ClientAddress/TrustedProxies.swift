#if canImport(Glibc)
import Glibc
#endif

/// The load balancers whose `X-Forwarded-For` compass-worker believes (`COMPASS_TRUSTED_PROXIES`).
///
/// ```swift
/// let proxies = try TrustedProxies("127.0.0.1, 10.0.0.0/8, ::1")
/// proxies.clientAddress(peer: "10.0.0.5", forwardedFor: ["203.0.113.7, 10.0.0.9"])  // "203.0.113.7"
/// ```
/// Behind haproxy every request comes from the balancer's address, so the per-address sign-in
/// limit would be one budget for every user. When the peer is trusted, the client is the
/// right-most `X-Forwarded-For` entry that is not itself a trusted proxy: entries to its left
/// were written by the client and prove nothing. A peer that is not trusted is the client,
/// whatever it sends. Empty (the default): the peer is always the client.
public struct TrustedProxies: Sendable, Equatable {
    /// An address range: `bits` leading bits of `address` (4 bytes for IPv4, 16 for IPv6).
    struct Range: Sendable, Equatable {
        var address: [UInt8]
        var bits: Int

        func contains(_ candidate: [UInt8]) -> Bool {
            guard candidate.count == address.count else { return false }
            var remaining = bits
            for (mine, theirs) in zip(address, candidate) where remaining > 0 {
                let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
                if mine & mask != theirs & mask { return false }
                remaining -= 8
            }
            return true
        }
    }

    let ranges: [Range]

    /// Trusts nobody.
    public static let none = TrustedProxies(ranges: [])

    /// True when no proxy is trusted.
    public var isEmpty: Bool { ranges.isEmpty }

    init(ranges: [Range]) {
        self.ranges = ranges
    }

    /// Parses a comma-separated list of addresses and CIDR ranges; the error names the first bad entry.
    public init(_ list: String) throws(InvalidEntry) {
        var ranges: [Range] = []
        for entry in list.split(separator: ",") {
            let text = entry.trimmingASCIISpaces()
            guard !text.isEmpty else { continue }
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let address = Self.bytes(of: String(parts[0])) else { throw InvalidEntry(entry: text) }
            var bits = address.count * 8
            if parts.count == 2 {
                guard let prefix = Int(parts[1]), (0...bits).contains(prefix) else { throw InvalidEntry(entry: text) }
                bits = prefix
            }
            ranges.append(Range(address: address, bits: bits))
        }
        self.init(ranges: ranges)
    }

    /// An entry of `COMPASS_TRUSTED_PROXIES` that is neither an IP address nor a CIDR range.
    public struct InvalidEntry: Error, Equatable {
        public var entry: String
    }

    /// True when `address` (IPv4 or IPv6 text) is in a trusted range.
    public func trusts(_ address: String) -> Bool {
        guard !ranges.isEmpty, let bytes = Self.bytes(of: address) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    /// The client's address: the peer, or when the peer is trusted the right-most
    /// `X-Forwarded-For` entry that is not a trusted proxy (an unparsable entry ends the walk).
    public func clientAddress(peer: String, forwardedFor headerValues: [String]) -> String {
        guard trusts(peer) else { return peer }
        let hops = headerValues.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces() }
        var client = peer
        for hop in hops.reversed() {
            guard Self.bytes(of: hop) != nil else { break }
            client = hop
            if !trusts(hop) { break }
        }
        return client
    }

    /// The address's bytes (4 or 16), or nil when it is not an IP address.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    func trimmingASCIISpaces() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
