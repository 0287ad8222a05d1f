import Synchronization

/// The bytes every client's outbox holds together (``ClientOutbox``), against one limit.
///
/// Each outbox is bounded on its own (`COMPASS_REALTIME_OUTBOUND_BUFFER_BYTES`, 16 MiB), but two
/// hundred sockets that never read held 3 GB between them. Past this total a client that already
/// has frames waiting is closed as too slow when the next frame comes for it; a client whose queue
/// is empty still gets its frame (it keeps up, and one large event is not a slow client).
public final class OutboundBudget: Sendable {
    /// The most bytes all outboxes may hold together.
    public let limit: Int
    private let held = Atomic<Int>(0)

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Bytes held now.
    public var heldBytes: Int { held.load(ordering: .relaxed) }

    /// Whether `bytes` more would pass the limit.
    func wouldPass(adding bytes: Int) -> Bool {
        held.load(ordering: .relaxed) > limit - bytes
    }

    func add(_ bytes: Int) {
        held.wrappingAdd(bytes, ordering: .relaxed)
    }

    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        held.wrappingSubtract(bytes, ordering: .relaxed)
    }
}
