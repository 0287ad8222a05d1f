import Postgres
import Synchronization

/// One client's TCP connection as the statements run for its requests see it: whether the
/// client is still there.
///
/// The connection's ``HTTPRequestGuard`` calls ``clientLeft()`` when the client closes its side
/// mid-request (or the connection drops); the connection's requests run with it as their
/// ``PostgresCancellation/caller``, so the Postgres client then cancels the running statement.
final class ClientConnection: PostgresCaller {
    private let left = Atomic(false)

    /// Whether the client has gone.
    var hasLeft: Bool { left.load(ordering: .relaxed) }

    /// The client closed its side (or the connection dropped).
    func clientLeft() {
        left.store(true, ordering: .relaxed)
    }
}
