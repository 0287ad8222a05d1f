import Synchronization

/// Bytes held across every connection, against one limit: the server's shared allowances for
/// request bodies being read (``ServerContext/bodyBudget``), reply parts not yet sent
/// (``ServerContext/replies``) and realtime frames waiting for their clients.
///
/// Each connection is bounded on its own, but thousands of them are not: 300 connections each
/// holding a body one byte short of its end kept 400 MB, a hundred unread 13 MB replies 1.6 GB,
/// two hundred sockets that never read 3 GB of realtime frames.
///
/// ```swift
/// let bodies = ByteBudget(limit: 64 << 20)
/// guard bodies.reserve(chunk.readableBytes) else { throw BodyBudgetExhausted() }  // all or nothing
/// defer { bodies.release(chunk.readableBytes) }
/// ```
public final class ByteBudget: Sendable {
    /// The most bytes the holders may hold together.
    public let limit: Int
    private let held = Atomic<Int>(0)

    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes held now.
    public var heldBytes: Int { held.load(ordering: .relaxed) }

    /// Whether more than the limit is held.
    public var isExhausted: Bool { heldBytes > limit }

    /// Whether `bytes` more would pass the limit.
    public func wouldPass(adding bytes: Int) -> Bool {
        heldBytes > limit - bytes
    }

    /// Whether `bytes` may be taken now: any amount while nothing is held (one item larger than
    /// the limit is not refused for its size alone), else only what fits.
    public func admits(_ bytes: Int) -> Bool {
        let waiting = heldBytes
        return waiting == 0 || waiting <= limit - bytes
    }

    /// Takes `bytes` if they fit; false, taking nothing, when they do not. Holders racing for the
    /// last bytes cannot pass the limit together.
    public func reserve(_ bytes: Int) -> Bool {
        var current = held.load(ordering: .relaxed)
        while true {
            guard current <= limit - bytes else { return false }
            let (exchanged, original) = held.compareExchange(expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Takes `bytes` whether they fit or not (bytes already in memory, counted until they leave).
    public func add(_ bytes: Int) {
        held.wrappingAdd(bytes, ordering: .relaxed)
    }

    /// Gives back what ``reserve(_:)`` or ``add(_:)`` took.
    public func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        held.wrappingSubtract(bytes, ordering: .relaxed)
    }
}
