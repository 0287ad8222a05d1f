import CompassHTTP
import CompassTokens
import HTTPTypes
import Logging

extension RealtimeAPI {
    /// Upgrades a valid request into a session; refuses others with the protocol's status and `{"error": …}`.
    static func decide(_ request: WebSocketUpgradeRequest, hub: RealtimeHub, logger: Logger) async -> WebSocketUpgradeDecision {
        let version: RealtimeProtocolVersion
        let token: String
        switch admission(request) {
        case .refused(let status, let reason):
            logger.debug("websocket upgrade refused", metadata: ["http.status": "\(status.code)", "realtime.reason": "\(reason)"])
            return .refuse(status, body: JSONReply.errorBody(reason))
        case .pendingTokenCheck(let requested, let presented):
            version = requested
            token = presented
        }
        do throws(AccessTokenError) {
            _ = try await hub.verifier.verify(token, expiry: .required)
        } catch {
            logger.debug("websocket upgrade refused", metadata: ["http.status": "401", "realtime.reason": "\(error.reason)"])
            return .refuse(.unauthorized, body: JSONReply.errorBody(error.reason))
        }
        let (capacity, maximumBytes) = (hub.configuration.outboundBufferFrames, hub.configuration.outboundBufferBytes)
        let address = request.countedAddress
        return .upgrade { inbound, outbound, context in
            guard
                let outbox = hub.registry.addClient(
                    version: version, capacity: capacity, maximumBytes: maximumBytes, budget: hub.outboundBudget, address: address)
            else {
                try await outbound.close(.goingAway, reason: "Server is shutting down")
                return
            }
            let session = RealtimeSession(
                hub: hub, outbox: outbox, connectionToken: token, channel: context.channel, logger: context.logger)
            await session.run(inbound: inbound, outbound: outbound)
        }
    }

    /// What an upgrade request gets before its token is checked.
    enum Admission {
        case refused(HTTPResponse.Status, String)
        case pendingTokenCheck(RealtimeProtocolVersion, String)
    }

    /// Checks `vsn` and the presence of `apikey` (query, `apikey` or `x-api-key` header).
    static func admission(_ request: WebSocketUpgradeRequest) -> Admission {
        guard let version = RealtimeProtocolVersion(vsn: request.query["vsn"]) else {
            return .refused(.forbidden, "unsupported protocol version (vsn): use 1.0.0 or 2.0.0")
        }
        let token = request.query["apikey"] ?? request.header("apikey") ?? request.header("x-api-key")
        guard let token, !token.isEmpty else { return .refused(.unauthorized, "apikey is missing") }
        return .pendingTokenCheck(version, token)
    }
}
