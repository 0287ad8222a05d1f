import Hummingbird
import Synchronization

/// How many requests one client address may run against the shared database pool at once:
/// the rest of its requests wait in a queue of their own, so one client keeping every pooled
/// connection busy (ten expensive reads, each up to its role's `statement_timeout`) cannot make
/// everyone else wait for a connection. Addresses that are not counted (loopback, a trusted proxy
/// that names no client; see ``TrustedProxies/countedAddress(peer:forwardedFor:)``) are not limited.
///
/// ```swift
/// let share = ClientShare(limit: 5)
/// try await share.withSlot(for: "203.0.113.7") { try await runStatement() }
/// ```
public final class ClientShare: Sendable {
    /// Requests one address may run at once.
    public let limit: Int
    private let state = Mutex<[String: Holder]>([:])

    private struct Holder {
        var running = 0
        /// Requests waiting for a slot, first come first served.
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    public init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once `address` has a free slot (at once for nil), and frees the slot after it.
    public func withSlot<T>(for address: String?, _ body: () async throws -> T) async throws -> T {
        guard let address else { return try await body() }
        await acquire(address)
        defer { release(address) }
        return try await body()
    }

    /// The requests `address` runs now, and how many wait (tests).
    func load(of address: String) -> (running: Int, waiting: Int) {
        state.withLock { holders in (holders[address]?.running ?? 0, holders[address]?.waiting.count ?? 0) }
    }

    private func acquire(_ address: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { holders in
                var holder = holders[address, default: Holder()]
                defer { holders[address] = holder }
                guard holder.running >= limit else {
                    holder.running += 1
                    return true
                }
                holder.waiting.append(continuation)
                return false
            }
            if admitted { continuation.resume() }
        }
    }

    /// Hands the slot to the next waiting request of `address`, or frees it.
    private func release(_ address: String) {
        let next: CheckedContinuation<Void, Never>? = state.withLock { holders in
            guard var holder = holders[address] else { return nil }
            if holder.waiting.isEmpty {
                holder.running -= 1
                holders[address] = holder.running > 0 ? holder : nil
                return nil
            }
            let next = holder.waiting.removeFirst()
            holders[address] = holder
            return next
        }
        next?.resume()
    }
}

/// Runs each request in its client's share of the database pool (``ClientShare``).
public struct ClientShareMiddleware: RouterMiddleware {
    public typealias Context = CompassRequestContext
    let share: ClientShare

    public init(_ share: ClientShare) {
        self.share = share
    }

    public func handle(
        _ request: Request, context: CompassRequestContext, next: (Request, CompassRequestContext) async throws -> Response
    ) async throws -> Response {
        try await share.withSlot(for: context.countedAddress) { try await next(request, context) }
    }
}
