import HTTPTypes
import Hummingbird

/// Sets ``CompassRequestContext/clientAddress`` from `X-Forwarded-For` when the peer is a
/// trusted proxy (see ``TrustedProxies``); installed once, in front of every route.
public struct ClientAddressMiddleware: RouterMiddleware {
    public typealias Context = CompassRequestContext
    let proxies: TrustedProxies

    public init(trusting proxies: TrustedProxies) {
        self.proxies = proxies
    }

    public func handle(
        _ request: Request, context: CompassRequestContext, next: (Request, CompassRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let peer = context.remoteAddress?.ipAddress, proxies.trusts(peer) else {
            return try await next(request, context)
        }
        var context = context
        let forwardedFor = request.headers[values: .xForwardedFor]
        context.forwardedClientAddress = proxies.clientAddress(peer: peer, forwardedFor: forwardedFor)
        context.proxiedCountedAddress = .some(proxies.countedAddress(peer: peer, forwardedFor: forwardedFor))
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
