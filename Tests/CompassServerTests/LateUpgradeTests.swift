import Testing

/// A proxy that pools connections may send a WebSocket upgrade on a connection that already
/// carried a request; upgrades are decided on a connection's first request only.
@Suite("WebSocket upgrade after a keep-alive request")
struct LateUpgradeTests {
    @Test func isRefusedWithTheReasonNotA404() async throws {
        try await ServerHarness.with { harness in
            let connection = try RawConnection(port: harness.port)
            await connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let first = await connection.read(timeout: .seconds(10)) { $0.contains("\r\n\r\n") && $0.hasSuffix("}") }
            #expect(RawConnection.status(of: first) == 200)
            await connection.send(
                "GET /realtime/v1/websocket?apikey=\(harness.keys.anon)&vsn=1.0.0 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            let reply = await connection.read(timeout: .seconds(10)) { $0.contains("\r\n\r\n") && $0.hasSuffix("}") }
            #expect(RawConnection.status(of: reply) == 400)
            #expect(reply.contains("must be the first request on its connection"))
            // The client (a proxy's pool) is told to drop the connection.
            #expect(reply.lowercased().contains("connection: close"))
        }
    }

    @Test func aPlainRequestIsToldThePathTakesWebSocketsOnly() async throws {
        try await ServerHarness.with { harness in
            let connection = try RawConnection(port: harness.port)
            await connection.send("GET /realtime/v1/websocket?apikey=\(harness.keys.anon)&vsn=1.0.0 HTTP/1.1\r\nHost: x\r\n\r\n")
            let reply = await connection.read(timeout: .seconds(10)) { $0.contains("\r\n\r\n") && $0.hasSuffix("}") }
            #expect(RawConnection.status(of: reply) == 400)
            #expect(reply.contains("takes WebSocket connections only"), "\(reply)")
            #expect(!reply.contains("proxy"))
        }
    }
}
