import Testing

@testable import CompassServer

/// Requests no client should send, over real sockets: each is answered with its status and
/// the connection is closed, so nobody can hold file descriptors with junk or slow headers.
@Suite("Malformed and oversized HTTP is answered and closed")
struct MalformedHTTPTests {
    static let cases: [(String, [UInt8], String)] = [
        ("garbage request line", Array("GARBAGE\r\n\r\n".utf8), "400"),
        ("TLS ClientHello", [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03] + Array(repeating: 0, count: 40), "400"),
        ("HTTP/9.9", Array("GET /health HTTP/9.9\r\nHost: x\r\n\r\n".utf8), "505"),
        ("NUL in the path", Array("GET /he\u{0}alth HTTP/1.1\r\nHost: x\r\n\r\n".utf8), "400"),
        ("NUL in a header", Array("GET /health HTTP/1.1\r\nHost: x\r\nX: a\u{0}b\r\n\r\n".utf8), "400"),
        ("a header without a colon", Array("GET /health HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n".utf8), "400"),
        ("two Content-Lengths", Array("POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab".utf8), "400"),
        ("an 80 KB URL", Array("GET /\(String(repeating: "a", count: 80_000)) HTTP/1.1\r\nHost: x\r\n\r\n".utf8), "414"),
        ("a 1 MB header", Array("GET /health HTTP/1.1\r\nHost: x\r\nX: \(String(repeating: "a", count: 1_000_000))\r\n\r\n".utf8), "431"),
        ("201 tiny header fields", Array(("GET /health HTTP/1.1\r\nHost: x\r\n" + (1...200).map { "X\($0): a\r\n" }.joined() + "\r\n").utf8), "431"),
        ("a gzipped chunked body", Array("POST /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n1\r\na\r\n0\r\n\r\n".utf8), "501"),
        ("a chunked body in HTTP/1.0", Array("POST /health HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n".utf8), "400"),
        ("a body coded twice over two fields", Array("POST /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\n\r\n".utf8), "501"),
        ("a WebSocket upgrade without a key", Array(Self.upgrade(key: nil).utf8), "400"),
        ("a WebSocket upgrade by POST", Array(Self.upgrade(method: "POST").utf8), "400"),
        ("a WebSocket upgrade of version 99", Array(Self.upgrade(version: "99").utf8), "426"),
        ("a WebSocket upgrade without Connection: Upgrade", Array(Self.upgrade().replacingOccurrences(of: "Connection: Upgrade\r\n", with: "").utf8), "400"),
        ("a WebSocket upgrade in HTTP/1.0", Array(Self.upgrade().replacingOccurrences(of: "HTTP/1.1", with: "HTTP/1.0").utf8), "400"),
    ]

    /// A WebSocket upgrade request to the realtime path (a valid one unless told otherwise).
    static func upgrade(method: String = "GET", key: String? = "dGhlIHNhbXBsZSBub25jZQ==", version: String = "13") -> String {
        "\(method) /realtime/v1/websocket?vsn=1.0.0 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
            + (key.map { "Sec-WebSocket-Key: \($0)\r\n" } ?? "") + "Sec-WebSocket-Version: \(version)\r\n\r\n"
    }

    @Test func eachIsAnsweredWithItsStatusAndClosed() async throws {
        try await ServerHarness.with { harness in
            for (name, bytes, status) in Self.cases {
                let connection = try RawConnection(port: harness.port)
                await connection.send(bytes)
                let (reply, closed) = await connection.readUntilClosed(timeout: .seconds(15))
                #expect(reply.hasPrefix("HTTP/1.1 \(status) "), "\(name): \(reply.prefix(60))")
                #expect(closed, "\(name): the connection stayed open")
            }
        }
    }

    @Test("an upgrade to a protocol other than WebSocket (curl --http2's h2c) is answered in HTTP/1.1")
    func upgradesToOtherProtocolsAreIgnored() async throws {
        try await ServerHarness.with { harness in
            // `Connection: Upgrade` makes the decoder read nothing after the request: answered, then closed.
            let h2c = try RawConnection(port: harness.port)
            await h2c.send(
                "GET /health HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                    + "HTTP2-Settings: AAMAAABkAAQCAAAAAAIAAAAA\r\n\r\n")
            let (answered, closed) = await h2c.readUntilClosed(timeout: .seconds(15))
            #expect(answered.hasPrefix("HTTP/1.1 200 "), "\(answered.prefix(60))")
            #expect(answered.lowercased().contains("connection: close"))
            #expect(answered.hasSuffix(#"{"status":"ok"}"#))
            #expect(closed)
            // Without it, the connection stays HTTP/1.1 and serves the next request.
            for upgrade in ["foo", "TLS/1.2, foo"] {
                let connection = try RawConnection(port: harness.port)
                await connection.send("GET /health HTTP/1.1\r\nHost: x\r\nUpgrade: \(upgrade)\r\n\r\n")
                let reply = await connection.read(timeout: .seconds(15)) { $0.hasSuffix(#"{"status":"ok"}"#) }
                #expect(reply.hasPrefix("HTTP/1.1 200 "), "\(upgrade): \(reply.prefix(60))")
                await connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                let next = await connection.read(timeout: .seconds(15)) { $0.hasSuffix(#"{"status":"ok"}"#) }
                #expect(next.hasPrefix("HTTP/1.1 200 "), "\(upgrade): \(next.prefix(60))")
            }
            // A body on such a request still reaches its handler.
            let post = try RawConnection(port: harness.port)
            await post.send(
                "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: x\r\nUpgrade: h2c\r\napikey: \(harness.keys.anon)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
            let refused = await post.read(timeout: .seconds(15)) { $0.hasSuffix("}") }
            #expect(refused.hasPrefix("HTTP/1.1 400 "), "\(refused.prefix(200))")
        }
    }

    @Test("a malformed chunked body is answered and closed, while its handler waits for it")
    func malformedChunkedBodies() async throws {
        let manyTrailers = (1...201).map { "X\($0): a\r\n" }.joined()
        try await ServerHarness.with { harness in
            for (name, chunks, status) in [("a size that is not hex", "zz\r\nab\r\n0\r\n\r\n", "400"),
                                           ("a size past Int", "fffffffffffffffffffff\r\nab\r\n0\r\n\r\n", "400"),
                                           ("a chunk longer than its size", "2\r\nabcdef\r\n0\r\n\r\n", "400"),
                                           ("201 trailer fields", "2\r\n{}\r\n0\r\n" + manyTrailers + "\r\n", "431")] {
                let connection = try RawConnection(port: harness.port)
                await connection.send(
                    "POST /rest/v1/schools HTTP/1.1\r\nHost: x\r\napikey: \(harness.keys.anon)\r\n"
                        + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
                let (reply, closed) = await connection.readUntilClosed(timeout: .seconds(15))
                #expect(reply.hasPrefix("HTTP/1.1 \(status) "), "\(name): \(reply.prefix(80))")
                #expect(reply.components(separatedBy: "HTTP/1.1 ").count == 2, "\(name): one reply only: \(reply)")
                #expect(closed, "\(name)")
            }
        }
    }

    @Test("bytes sent right behind a WebSocket handshake, or behind a closing request, do not take the worker down")
    func bytesBehindAnUpgradeOrAClosingRequest() async throws {
        try await ServerHarness.with { harness in
            let handshake = Self.upgrade().replacingOccurrences(of: "?vsn=1.0.0", with: "?apikey=\(harness.keys.anon)&vsn=1.0.0")
            for behind in ["GET /health HTTP/1.1\r\nHost: x\r\n\r\n", "\u{81}\u{85}abcdhello", "garbage\r\n\r\n"] {
                for withConnectionHeader in [true, false] {
                    let connection = try RawConnection(port: harness.port)
                    let request = withConnectionHeader ? handshake : handshake.replacingOccurrences(of: "Connection: Upgrade\r\n", with: "")
                    await connection.send(request + behind)
                    let reply = await connection.read(timeout: .seconds(5)) { $0.contains("\r\n\r\n") }
                    #expect(reply.hasPrefix(withConnectionHeader ? "HTTP/1.1 101 " : "HTTP/1.1 400 "), "\(reply.prefix(40))")
                    connection.hangUp()
                    #expect(try await RawConnection.get("/health", port: harness.port, headers: [:]) == 200, "the worker is alive")
                }
            }
            // A closing request with another behind it gets its own reply, then the connection closes.
            for first in ["GET /health HTTP/1.0\r\n\r\n", "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"] {
                let connection = try RawConnection(port: harness.port)
                await connection.send(first + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                let (reply, closed) = await connection.readUntilClosed(timeout: .seconds(10))
                #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.hasSuffix(#"{"status":"ok"}"#), "\(reply.prefix(60))")
                #expect(closed)
            }
        }
    }

    @Test("client frames that break RFC 6455 (unmasked, reserved bits, a stray continuation) are closed with 1002")
    func webSocketProtocolViolations() async throws {
        try await ServerHarness.with { harness in
            let handshake = Self.upgrade().replacingOccurrences(of: "?vsn=1.0.0", with: "?apikey=\(harness.keys.anon)&vsn=1.0.0")
            // Masked with abcd: "hello" XOR "abcd…".
            let masked: [UInt8] = [0x61, 0x62, 0x63, 0x64] + zip(Array("hello".utf8), [0x61, 0x62, 0x63, 0x64, 0x61]).map { $0 ^ $1 }
            let cases: [(String, [UInt8])] = [
                ("client frames must be masked", [0x81, 0x05] + Array("hello".utf8)),
                ("reserved bits must be 0", [0xC1, 0x85] + masked),
                ("a continuation frame with no message to continue", [0x80, 0x85] + masked),
                ("a new message before the last one ended", [0x01, 0x85] + masked + [0x81, 0x85] + masked),
            ]
            for (reason, frames) in cases {
                let connection = try RawConnection(port: harness.port)
                await connection.send(handshake)
                let switched = await connection.read(timeout: .seconds(5)) { $0.contains("\r\n\r\n") }
                #expect(switched.hasPrefix("HTTP/1.1 101 "), "\(switched.prefix(40))")
                await connection.send(frames)
                let (reply, closed) = await connection.readUntilClosed(timeout: .seconds(10))
                #expect(reply.contains(reason), "\(reason): \(reply.suffix(80))")
                #expect(closed, "\(reason)")
            }
            #expect(try await RawConnection.get("/health", port: harness.port, headers: [:]) == 200, "the worker is alive")
        }
    }

    @Test("a request that expects 100-continue is told to send its body, and then answered")
    func expectContinueIsAnswered() async throws {
        try await ServerHarness.with { harness in
            let connection = try RawConnection(port: harness.port)
            let body = #"{"name":"x"}"#
            await connection.send(
                "POST /rest/v1/schools HTTP/1.1\r\nHost: x\r\napikey: \(harness.keys.anon)\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
            let interim = await connection.read(timeout: .seconds(10)) { $0.contains("\r\n\r\n") }
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            await connection.send(body)
            let reply = await connection.read(timeout: .seconds(10)) { $0.contains("\r\n\r\n") && $0.hasSuffix("}") }
            #expect(reply.hasPrefix("HTTP/1.1 401 "), "\(reply.prefix(80))")  // RLS: anon may not add a school
        }
    }

    @Test("HTTP/1.0 is closed after its response unless it asked to be kept alive")
    func http10ClosesUnlessKeptAlive() async throws {
        try await ServerHarness.with { harness in
            let plain = try RawConnection(port: harness.port)
            await plain.send("GET /health HTTP/1.0\r\n\r\n")
            let (reply, closed) = await plain.readUntilClosed(timeout: .seconds(5))
            #expect(reply.hasPrefix("HTTP/1.1 200 ") && reply.hasSuffix(#"{"status":"ok"}"#), "\(reply.prefix(60))")
            #expect(closed)
            let kept = try RawConnection(port: harness.port)
            await kept.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(await kept.read(timeout: .seconds(15)) { $0.hasSuffix(#"{"status":"ok"}"#) }.hasPrefix("HTTP/1.1 200 "))
            #expect(!(await kept.readUntilClosed(timeout: .milliseconds(300)).closed))
        }
    }

    @Test func aRequestHeadOrBodyThatStopsComingIsClosedAfterTheHeaderTimeout() async throws {
        try await ServerHarness.with(adjust: { $0.http.headerTimeout = .seconds(1) }) { harness in
            let slow = try RawConnection(port: harness.port)
            await slow.send("GET /health HTTP/1.1\r\nHost: x\r\n")
            // Bounds on a loaded machine (every suite shares two event loops), not the timeout's measure.
            let (_, closed) = await slow.readUntilClosed(timeout: .seconds(45))
            #expect(closed)
            // A body that stops coming is cut off the same way, with 408.
            let slowBody = try RawConnection(port: harness.port)
            await slowBody.send(
                "POST /rest/v1/schools HTTP/1.1\r\nHost: x\r\napikey: \(harness.keys.anon)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"name\":")
            let (stalled, closedAfterStall) = await slowBody.readUntilClosed(timeout: .seconds(45))
            #expect(stalled.hasPrefix("HTTP/1.1 408 "))
            #expect(closedAfterStall)
            // So is one that trickles in a byte at a time: each header timeout must bring a kilobyte.
            let trickle = try RawConnection(port: harness.port)
            await trickle.send(
                "POST /rest/v1/schools HTTP/1.1\r\nHost: x\r\napikey: \(harness.keys.anon)\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n")
            for _ in 0..<8 {
                await trickle.send(" ")
                try await Task.sleep(for: .milliseconds(400))
            }
            // Cut off while it was still trickling (3.2 s, against a 1 s header timeout), not after.
            let (trickled, closedAfterTrickle) = await trickle.readUntilClosed(timeout: .milliseconds(300))
            #expect(trickled.hasPrefix("HTTP/1.1 408 "), "\(trickled.prefix(60))")
            #expect(closedAfterTrickle)
            // A well-formed request on a fresh connection is still served, and kept alive.
            let good = try RawConnection(port: harness.port)
            await good.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            let reply = await good.read(timeout: .seconds(15)) { $0.hasSuffix(#"{"status":"ok"}"#) }
            #expect(reply.hasPrefix("HTTP/1.1 200 "))
            #expect(!(await good.readUntilClosed(timeout: .milliseconds(300)).closed))  // kept alive
        }
    }

    @Test func aKeptAliveConnectionIsClosedOnlyOnceItsIdleTimeoutPasses() async throws {
        // The head clock from the connection's start runs out first: it must not close the
        // connection, which answered a request since and now waits out the idle timeout.
        try await ServerHarness.with(adjust: { $0.http.headerTimeout = .seconds(1); $0.http.idleTimeout = .seconds(5) }) { harness in
            let connection = try RawConnection(port: harness.port)
            for _ in 0..<2 {
                await connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                let reply = await connection.read(timeout: .seconds(15)) { $0.hasSuffix(#"{"status":"ok"}"#) }
                #expect(reply.contains("HTTP/1.1 200 "))
                try await Task.sleep(for: .milliseconds(1_500))
            }
            let (_, closed) = await connection.readUntilClosed(timeout: .seconds(45))
            #expect(closed)
        }
    }

    @Test func connectionsPastTheCapAreRefusedWith503() async throws {
        try await ServerHarness.with(adjust: { $0.http.maximumConnections = 2 }) { harness in
            // Two kept-alive connections, each known to be accepted (connections on different event
            // loops are counted in no fixed order, so each is made to answer before the next opens).
            var open: [RawConnection] = []
            for _ in 0..<2 {
                let connection = try RawConnection(port: harness.port)
                await connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                let reply = await connection.read(timeout: .seconds(15)) { $0.hasSuffix(#"{"status":"ok"}"#) }
                #expect(reply.hasPrefix("HTTP/1.1 200 "))
                open.append(connection)
            }
            let third = try RawConnection(port: harness.port)
            let (reply, closed) = await third.readUntilClosed(timeout: .seconds(15))
            #expect(reply.hasPrefix("HTTP/1.1 503 "))
            #expect(reply.contains("Retry-After: 1"))
            #expect(closed)
            // One closes: a new connection is served again.
            open[0].hangUp()
            var status: Int?
            // Generous: the close is noticed by the server's tasks, which share two cores with every other suite.
            let deadline = ContinuousClock.now + .seconds(30)
            while status != 200, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                status = try await RawConnection.get("/health", port: harness.port, headers: [:])
            }
            #expect(status == 200)
        }
    }
}
