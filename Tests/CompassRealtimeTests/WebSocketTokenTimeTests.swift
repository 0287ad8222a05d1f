import CompassTestSupport
import Foundation
import Testing

@testable import CompassRealtime
@testable import CompassTokens

/// Tokens whose `nbf` (or `iat`) lies beyond the verifier's 30 s skew, at every place a token enters.
@Suite("WebSocket token time claims, in process")
struct WebSocketTokenTimeTests {
    static let notValidYet = "InvalidJWTToken: Token is not valid yet"

    /// A signed token for Sofia, valid for an hour, with `nbf` (and `iat`) `ahead` seconds from now.
    static func futureToken(notBefore ahead: Int, issuedAhead: Int = 0) -> String {
        let now = Int(Date().timeIntervalSince1970)
        return HS256Text.token(
            claimsJSON: #"{"aud":"authenticated","exp":\#(now + 3600),"iat":\#(now + issuedAhead),"nbf":\#(now + ahead),"#
                + #""role":"authenticated","sub":"\#(Demo.sofia)"}"#,
            secret: WorkerHarness.secret)
    }

    @Test func anApikeyNotValidYetRefusesTheUpgrade() async throws {
        try await WorkerHarness.with { worker in
            let answer = try await WebSocketProtocolTests.rawUpgrade(
                port: worker.port, target: "/realtime/v1/websocket?apikey=\(Self.futureToken(notBefore: 500))&vsn=1.0.0")
            #expect(answer.status == 401)
            #expect(answer.body == #"{"error":"\#(Self.notValidYet)"}"#)
            // Within the skew it is accepted.
            let accepted = try await worker.connect(token: Self.futureToken(notBefore: 20))
            _ = try await accepted.close()
        }
    }

    /// Realtime requires `exp` (REST, `/api` and auth accept a token without it: ``ExpiryRule``).
    @Test func aTokenWithoutExpiryIsRefusedWithRealtimesReason() async throws {
        let noExpiry = HS256Text.token(
            claimsJSON: #"{"aud":"authenticated","role":"authenticated","sub":"\#(Demo.sofia)"}"#, secret: WorkerHarness.secret)
        let reason = "InvalidJWTToken: Fields `role` and `exp` are required in JWT"
        try await WorkerHarness.with { worker in
            let answer = try await WebSocketProtocolTests.rawUpgrade(
                port: worker.port, target: "/realtime/v1/websocket?apikey=\(noExpiry)&vsn=1.0.0")
            #expect(answer.status == 401)
            #expect(answer.body == #"{"error":"\#(reason)"}"#)
        }
    }

    @Test func aJoinWithATokenNotValidYetIsRefused() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            let interactions: RealtimeJSON = ["event": "INSERT", "schema": "public", "table": "interactions"]
            let refused = try await socket.join("realtime:a", bindings: [interactions], token: Self.futureToken(notBefore: 500), ref: "1")
            #expect(refused?.payload["status"] == "error")
            #expect(refused?.payload["response"]?["reason"] == .string(Self.notValidYet))
            let issuedLater = try await socket.join(
                "realtime:b", bindings: [interactions], token: Self.futureToken(notBefore: 0, issuedAhead: 500), ref: "2")
            #expect(issuedLater?.payload["response"]?["reason"] == "InvalidJWTToken: Token was issued in the future")
            #expect(worker.hub.registry.counts.channels == 0)
            _ = try await socket.close()
        }
    }

    @Test func anAccessTokenNotValidYetEndsTheChannel() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            _ = try await socket.join("realtime:feed", bindings: [], ref: "1")
            socket.send(
                topic: "realtime:feed", event: "access_token", payload: ["access_token": .string(Self.futureToken(notBefore: 500))],
                ref: "2", joinRef: "1")
            let notice = try await socket.message { $0.event == "system" }
            #expect(notice?.payload["status"] == "error")
            #expect(notice?.payload["message"] == .string(Self.notValidYet))
            let close = try await socket.nextMessage()
            #expect(close?.event == "phx_close")
            #expect(close?.ref == "1")
            #expect(worker.hub.registry.counts.channels == 0)
            _ = try await socket.close()
        }
    }
}
