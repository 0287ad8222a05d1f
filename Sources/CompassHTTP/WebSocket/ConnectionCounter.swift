import NIOCore
import Synchronization

/// Open connections, counted as they open and as their channels close.
final class ConnectionCounter: Sendable {
    private let count = Atomic<Int>(0)
    /// Open connections by peer address, for the addresses that are counted.
    private let byAddress = Mutex<[String: Int]>([:])

    enum Outcome: Equatable {
        case opened
        /// Every slot is taken.
        case atLimit
        /// The peer's address holds its share.
        case addressAtLimit
    }

    /// Counts `channel` (uncounted when it closes) if fewer than `limit` are open and, for a
    /// counted `address`, fewer than `addressLimit` (0: none) of them from it.
    func open(_ channel: any Channel, limit: Int, address: String? = nil, addressLimit: Int = 0) -> Outcome {
        let outcome = open(limit: limit, address: address, addressLimit: addressLimit)
        if outcome == .opened { channel.closeFuture.whenComplete { _ in self.close(address: address, addressLimit: addressLimit) } }
        return outcome
    }

    /// The counting itself (tests call it without a channel).
    func open(limit: Int, address: String?, addressLimit: Int) -> Outcome {
        guard count.wrappingAdd(1, ordering: .relaxed).newValue <= limit else {
            count.wrappingSubtract(1, ordering: .relaxed)
            return .atLimit
        }
        guard let address, addressLimit > 0 else { return .opened }
        let admitted = byAddress.withLock { counts in
            let open = counts[address, default: 0]
            guard open < addressLimit else { return false }
            counts[address] = open + 1
            return true
        }
        if !admitted { count.wrappingSubtract(1, ordering: .relaxed) }
        return admitted ? .opened : .addressAtLimit
    }

    /// Uncounts a connection ``open(limit:address:addressLimit:)`` admitted.
    func close(address: String?, addressLimit: Int) {
        count.wrappingSubtract(1, ordering: .relaxed)
        guard let address, addressLimit > 0 else { return }
        byAddress.withLock { counts in
            let open = counts[address, default: 1] - 1
            counts[address] = open > 0 ? open : nil
        }
    }

    /// Connections open now (for tests).
    var openCount: Int { count.load(ordering: .relaxed) }
}
