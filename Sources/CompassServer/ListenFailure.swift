import Foundation
import NIOCore

/// The worker could not open its listening socket: which address, why, and the settings to change.
///
/// ```
/// cannot listen on 127.0.0.1:4000: the address is already in use (another compass-worker?);
/// choose another port with COMPASS_WORKER_PORT (or the address with COMPASS_WORKER_HOST)
/// ```
public struct ListenFailure: Error, Sendable, CustomStringConvertible {
    public var host: String
    public var port: Int
    /// The system's reason (`strerror`), or our reading of it.
    public var reason: String

    /// The failure behind `error` when it is the listener's bind (NIO's `IOError`), else nil.
    public init?(_ error: any Error, host: String, port: Int) {
        guard let error = error as? IOError, error.description.hasPrefix("bind") else { return nil }
        self.host = host
        self.port = port
        switch error.errnoCode {
        case EADDRINUSE: reason = "the address is already in use (another compass-worker? `make stop` ends the one `make run` started)"
        case EADDRNOTAVAIL: reason = "\(host) is not an address of this machine"
        case EACCES: reason = "permission denied (ports below 1024 need privileges)"
        default: reason = error.description
        }
    }

    public var description: String {
        "cannot listen on \(host):\(port): \(reason); choose another port with COMPASS_WORKER_PORT "
            + "(or another address with COMPASS_WORKER_HOST)"
    }
}
