import Synchronization

/// Whether a joined channel is still the registry's, shared by every version of its record
/// (a token refresh replaces the record, not the subscription).
///
/// A batch is matched, then checked against Postgres, then queued: a client that leaves or
/// re-joins the topic meanwhile must not get the batch's events after its reply, with the
/// old bindings' ids. The registry ends the liveness before it queues that reply, and the
/// outbox reads it under its own lock (``ClientOutbox/enqueue(_:whileJoined:)``), so an event
/// either goes in before the reply or not at all.
final class ChannelLiveness: Sendable {
    private let current = Atomic<Bool>(true)

    /// True until the channel is left, re-joined or its client removed.
    var isCurrent: Bool { current.load(ordering: .acquiring) }

    /// Marks the channel gone.
    func end() { current.store(false, ordering: .releasing) }
}
