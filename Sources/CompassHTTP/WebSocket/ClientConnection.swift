import Synchronization

/// One client's TCP connection as the request handlers see it: whether the client is still
/// there, and a way to stop the request in flight when it leaves.
///
/// The connection's ``HTTPRequestGuard`` calls ``clientLeft()`` when the client closes its side
/// mid-request; ``CancelOnDisconnectMiddleware`` hands ``hasLeft`` to the Postgres client, which
/// then cancels the request's running statement on the server.
public final class ClientConnection: Sendable {
    private let left = Atomic(false)

    /// The connection the current request arrived on (nil outside a served connection, e.g. in-process tests).
    @TaskLocal public static var current: ClientConnection?

    public init() {}

    /// Whether the client has gone.
    public var hasLeft: Bool { left.load(ordering: .relaxed) }

    /// The client closed its side (or the connection dropped).
    func clientLeft() {
        left.store(true, ordering: .relaxed)
    }
}
