/// The checkouts waiting for a pooled connection, oldest first.
///
/// Kept in a lock beside the pool's actor so that a cancelled checkout can leave the queue
/// from its cancellation handler without starting a task. Every checkout waits the same
/// `checkoutTimeout`, so the oldest waiter always has the earliest deadline.
struct PostgresPoolWaiters {
    /// One waiting checkout: resumed with a connection, nil for "a slot is free, open one", or an error.
    struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<PostgresConnection?, any Error>
        let deadline: ContinuousClock.Instant
        let file: String
        let line: Int
    }

    private var queue: [Waiter] = []
    private var nextID = 0

    /// A fresh id for a checkout about to wait.
    mutating func reserveID() -> Int {
        defer { nextID += 1 }
        return nextID
    }

    mutating func append(_ waiter: Waiter) {
        queue.append(waiter)
    }

    /// The oldest waiter, taken out of the queue.
    mutating func removeFirst() -> Waiter? {
        queue.isEmpty ? nil : queue.removeFirst()
    }

    /// The waiter with `id`, taken out of the queue (nil once it was served or expired).
    mutating func remove(_ id: Int) -> Waiter? {
        guard let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
        return queue.remove(at: index)
    }

    /// How many checkouts wait.
    var count: Int { queue.count }

    /// When the oldest waiter gives up; nil when nobody waits.
    var earliestDeadline: ContinuousClock.Instant? { queue.first?.deadline }

    /// The waiters whose deadline has passed at `now`, taken out of the queue.
    mutating func removeExpired(at now: ContinuousClock.Instant) -> [Waiter] {
        let count = queue.prefix { $0.deadline <= now }.count
        defer { queue.removeFirst(count) }
        return Array(queue.prefix(count))
    }

    /// Every waiter, taken out of the queue (the pool is shutting down).
    mutating func removeAll() -> [Waiter] {
        defer { queue.removeAll() }
        return queue
    }
}
