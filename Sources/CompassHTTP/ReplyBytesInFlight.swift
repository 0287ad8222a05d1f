import Synchronization

/// The bytes of reply bodies handed to sockets and not yet sent, on every connection together.
///
/// A client that asks for a large reply and never reads it leaves the reply in the worker's
/// memory until its connection ends: a hundred such connections held 1.6 GB. Every connection's
/// ``HTTPRequestGuard`` counts the large body parts it writes until the socket took them, and an
/// API about to send a large reply asks ``admits(_:)`` first (503 `server_busy` when it does not).
public final class ReplyBytesInFlight: Sendable {
    /// Body parts smaller than this are not counted: their total is bounded by the connections.
    public static let countedPartBytes = 16 << 10
    /// The most bytes the counted parts may hold together.
    public let limit: Int
    private let held = Atomic<Int>(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes waiting to be sent now.
    public var bytes: Int { held.load(ordering: .relaxed) }

    /// Whether a reply of `bytes` may be sent now: small ones always, and any one while nothing
    /// is waiting (a reply larger than the limit is not refused for its size alone).
    public func admits(_ bytes: Int) -> Bool {
        guard bytes >= Self.countedPartBytes else { return true }
        let waiting = held.load(ordering: .relaxed)
        return waiting == 0 || waiting <= limit - bytes
    }

    /// Whether the waiting bytes are past the limit.
    public var isExhausted: Bool { held.load(ordering: .relaxed) > limit }

    func add(_ bytes: Int) {
        held.wrappingAdd(bytes, ordering: .relaxed)
    }

    func release(_ bytes: Int) {
        held.wrappingSubtract(bytes, ordering: .relaxed)
    }
}
