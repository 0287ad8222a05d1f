import Hummingbird
import NIOCore

/// The request context every compass-worker route sees: Hummingbird's core storage, the
/// client's address (rate limits key on it) and the API key the gateway middleware verified.
public struct CompassRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's address, when the channel knows it.
    public let remoteAddress: SocketAddress?
    /// The verified `apikey`, set by ``APIKeyMiddleware`` (nil on routes outside a gated group).
    public var apiKey: APIKey?
    /// The client behind a trusted proxy, set by ``ClientAddressMiddleware``.
    public var forwardedClientAddress: String?
    /// The address per-address limits count the request against, set by ``ClientAddressMiddleware``
    /// for a trusted peer (nil: the proxy named no client); see ``countedAddress``.
    public var proxiedCountedAddress: String??

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// The client's IP address as text (`127.0.0.1`): the peer's, or the one a trusted proxy
    /// forwarded; `unknown` when the channel has none.
    public var clientAddress: String {
        forwardedClientAddress ?? remoteAddress?.ipAddress ?? "unknown"
    }

    /// The address per-address limits count the request against (``TrustedProxies/countedAddress(peer:forwardedFor:)``):
    /// nil for loopback and for a trusted proxy that names no client.
    public var countedAddress: String? {
        if let proxiedCountedAddress { return proxiedCountedAddress }
        return TrustedProxies.none.countedAddress(peer: remoteAddress?.ipAddress)
    }

    /// The gateway-verified key; a route outside a gated group asking for it is a wiring bug.
    public func requireAPIKey() throws(APIKeyError) -> APIKey {
        guard let apiKey else { throw .missing }
        return apiKey
    }
}
