import Hummingbird
import NIOCore

/// The request context every compass-worker route sees: Hummingbird's core storage plus
/// the client's address (rate limits key on it).
public struct CompassRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address, when the channel knows it.
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address as text (`127.0.0.1`), or `unknown`.
    public var clientAddress: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
