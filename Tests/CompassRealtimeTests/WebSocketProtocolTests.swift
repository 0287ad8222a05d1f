import CompassTestSupport
import CompassTokens
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@testable import CompassRealtime

@Suite("WebSocket protocol, in process")
struct WebSocketProtocolTests {
    static let interactions: RealtimeJSON = ["event": "INSERT", "schema": "public", "table": "interactions"]

    @Test func heartbeatsAreAnsweredInBothEncodings() async throws {
        try await WorkerHarness.with { worker in
            let token = try await worker.token(Demo.sofia)
            let v1 = try await worker.connect(token: token, vsn: nil)
            v1.send(#"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":null}"#)
            #expect(await v1.next() == #"{"event":"phx_reply","payload":{"response":{},"status":"ok"},"ref":null,"topic":"phoenix"}"#)
            v1.send(#"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"5"}"#)
            #expect(await v1.next()?.contains(#""ref":"5""#) == true)

            let v2 = try await worker.connect(token: token, vsn: "2.0.0")
            v2.send(#"[null,"7","phoenix","heartbeat",{}]"#)
            #expect(await v2.next() == #"[null,"7","phoenix","phx_reply",{"response":{},"status":"ok"}]"#)
            _ = try await v1.close()
            _ = try await v2.close()
        }
    }

    @Test func joinIsAcceptedWithEchoedBindingsThenSubscribed() async throws {
        try await WorkerHarness.with { worker in
            let token = try await worker.token(Demo.sofia)
            let socket = try await worker.connect(token: token, vsn: "2.0.0")
            let filter = "logged_by=eq.\(Demo.sofia.uppercased())"
            let binding: RealtimeJSON = ["event": "INSERT", "schema": "public", "table": "interactions", "filter": .string(filter)]
            socket.send(
                #"["1","1","realtime:feed","phx_join",{"config":{"postgres_changes":[\#(binding.jsonText)]},"access_token":"\#(token)"}]"#)
            let replyText = try #require(await socket.next())
            let reply = try #require(try RealtimeJSON(parsing: replyText).arrayValue)
            #expect(reply[0] == "1")
            #expect(reply[1] == "1")
            #expect(reply[3] == "phx_reply")
            #expect(reply[4]["status"] == "ok")
            let echoed = try #require(reply[4]["response"]?["postgres_changes"]?.arrayValue?.first)
            #expect(echoed["filter"] == .string(filter))
            #expect(echoed["event"] == "INSERT")
            guard case .number(let idText)? = echoed["id"], let id = Int(idText) else {
                Issue.record("id is not an integer")
                return
            }
            #expect(id > 0)
            let system = try #require(try await socket.nextMessage())
            #expect(system.event == "system")
            #expect(system.joinRef == "1")
            #expect(system.ref == nil)
            #expect(system.payload == ["channel": "feed", "extension": "postgres_changes", "status": "ok", "message": "Subscribed to PostgreSQL"])

            let row = try await worker.insertInteraction(by: Demo.sofia)
            let event = try #require(try await socket.message { $0.event == "postgres_changes" })
            #expect(event.joinRef == nil && event.ref == nil)
            #expect(event.payload["ids"] == .array([.number(String(id))]))
            #expect(event.payload.recordValue("id") == row)
            _ = try await socket.close()
        }
    }

    @Test func joinsAreRefusedWithTheProtocolsReasons() async throws {
        try await WorkerHarness.with { worker in
            let token = try await worker.token(Demo.sofia)
            let socket = try await worker.connect(token: token)
            let expired = try await worker.token(Demo.sofia, lifetime: -30)
            let refusedExpired = try await socket.join("realtime:a", bindings: [Self.interactions], token: expired, ref: "1")
            #expect(refusedExpired?.payload["status"] == "error")
            #expect(refusedExpired?.payload["response"]?["reason"]?.stringValue?.hasPrefix("InvalidJWTToken: Token has expired") == true)

            let forged = try await AccessTokenIssuer(secret: "not the worker's secret, but long enough")
                .token(role: .authenticated, subject: Demo.sofia, lifetime: 60)
            let refusedForged = try await socket.join("realtime:b", bindings: [], token: forged, ref: "2")
            #expect(refusedForged?.payload["response"]?["reason"]?.stringValue?.hasPrefix("JwtSignatureError") == true)

            let refusedEmpty = try await socket.join("realtime:", bindings: [], ref: "3")
            #expect(refusedEmpty?.payload["response"]?["reason"]?.stringValue?.hasPrefix("TopicNameRequired") == true)

            let refusedTopic = try await socket.join("room:lobby", bindings: [], ref: "4")
            #expect(refusedTopic?.payload["response"]?["reason"] == "unmatched topic")

            // Invalid bindings: the join succeeds, then a system error says why.
            let bad: RealtimeJSON = ["event": "*", "schema": "public", "table": "interactions", "filter": "nope=eq.1"]
            let accepted = try await socket.join("realtime:c", bindings: [bad], ref: "5")
            #expect(accepted?.payload["status"] == "ok")
            let system = try await socket.message { $0.event == "system" }
            #expect(system?.payload["status"] == "error")
            #expect(system?.payload["message"]?.stringValue?.contains("nope") == true)
            _ = try await socket.close()
        }
    }

    @Test func upgradesWithoutAValidTokenOrVersionAreRefused() async throws {
        try await WorkerHarness.with { worker in
            let token = try await worker.token(Demo.sofia)
            let garbage = try await Self.rawUpgrade(port: worker.port, target: "/realtime/v1/websocket?apikey=not-a-jwt&vsn=1.0.0")
            #expect(garbage.status == 401)
            #expect(garbage.body == #"{"error":"MalformedJWT: The token provided is not a valid JWT"}"#)
            let expired = try await Self.rawUpgrade(
                port: worker.port, target: "/realtime/v1/websocket?apikey=\(try await worker.token(Demo.sofia, lifetime: -5))")
            #expect(expired.status == 401)
            #expect(expired.body.contains("InvalidJWTToken: Token has expired"))
            let missing = try await Self.rawUpgrade(port: worker.port, target: "/realtime/v1/websocket?vsn=2.0.0")
            #expect(missing.status == 401)
            let version = try await Self.rawUpgrade(port: worker.port, target: "/realtime/v1/websocket?apikey=\(token)&vsn=3.0.0")
            #expect(version.status == 403)
            let elsewhere = try await Self.rawUpgrade(port: worker.port, target: "/elsewhere?apikey=\(token)")
            #expect(elsewhere.status == 404)
            // The server is still up, and the header form of apikey works too.
            let viaHeader = try await Self.rawUpgrade(port: worker.port, target: "/socket/websocket?vsn=1.0.0", apikeyHeader: token)
            #expect(viaHeader.status == 101)
            let socket = try await worker.connect(token: token, path: "/socket/websocket")
            _ = try await socket.close()
        }
    }

    /// Sends a WebSocket upgrade request by hand and returns the status and body of the answer.
    ///
    /// The blocking socket calls run on a thread of their own: on the cooperative pool they
    /// would hold one of its few threads while the in-process server needs it to answer.
    static func rawUpgrade(port: Int, target: String, apikeyHeader: String? = nil) async throws -> (status: Int, body: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingUpgrade(port: port, target: target, apikeyHeader: apikeyHeader) })
            }.start()
        }
    }

    private static func blockingUpgrade(port: Int, target: String, apikeyHeader: String?) throws -> (status: Int, body: String) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw HarnessError("cannot connect to the worker") }
        // Short receive slices up to a generous deadline: a loaded CI machine can take seconds
        // to answer, and a slice that times out (or a signal) is not an answer.
        var slice = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &slice, socklen_t(MemoryLayout<timeval>.size))
        let deadline = ContinuousClock.now + .seconds(30)
        var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let apikeyHeader { request += "apikey: \(apikeyHeader)\r\n" }
        request += "\r\n"
        _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, [EAGAIN, EWOULDBLOCK, EINTR].contains(errno), ContinuousClock.now < deadline { continue }
            if count < 0 { throw HarnessError("no answer to the upgrade of \(target): errno \(errno)") }
            if count == 0 { break }
            response += buffer[0..<count]
            let text = String(decoding: response, as: UTF8.self)
            if text.hasPrefix("HTTP/1.1 101"), text.contains("\r\n\r\n") { break }
        }
        let text = String(decoding: response, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        return (status, body)
    }

    @Test func leaveRepliesThenClosesTheJoin() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia), vsn: "2.0.0")
            socket.send(#"["3","3","realtime:feed","phx_join",{"config":{"postgres_changes":[]}}]"#)
            let joined = try #require(try await socket.nextMessage())
            #expect(joined.payload["response"] == ["postgres_changes": []])
            socket.send(#"["3","4","realtime:feed","phx_leave",{}]"#)
            #expect(await socket.next() == #"["3","4","realtime:feed","phx_reply",{"response":{},"status":"ok"}]"#)
            #expect(await socket.next() == #"["3","3","realtime:feed","phx_close",{}]"#)
            // The topic is no longer joined.
            socket.send(#"["3","5","realtime:feed","phx_leave",{}]"#)
            let unmatched = try #require(try await socket.nextMessage())
            #expect(unmatched.payload["response"]?["reason"] == "unmatched topic")
            _ = try await socket.close()
        }
    }

    @Test func tokenRefreshKeepsTheChannelAndABadTokenEndsIt() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            _ = try await socket.join("realtime:feed", bindings: [Self.interactions], ref: "1")
            _ = try await socket.message { $0.event == "system" }
            socket.send(
                topic: "realtime:feed", event: "access_token",
                payload: ["access_token": .string(try await worker.token(Demo.sofia, lifetime: 7200))], ref: "2", joinRef: "1")
            let row = try await worker.insertInteraction(by: Demo.sofia)
            let event = try await socket.message { $0.event == "postgres_changes" }
            #expect(event?.payload.recordValue("id") == row)

            socket.send(topic: "realtime:feed", event: "access_token", payload: ["access_token": "garbage"], ref: "3", joinRef: "1")
            let notice = try await socket.message { $0.event == "system" }
            #expect(notice?.payload["status"] == "error")
            #expect(notice?.payload["message"]?.stringValue?.hasPrefix("MalformedJWT") == true)
            let close = try await socket.nextMessage()
            #expect(close?.event == "phx_close")
            #expect(close?.ref == "1")
            _ = try await socket.close()
        }
    }

    @Test func expiredTokensEndTheChannel() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            _ = try await socket.join("realtime:feed", bindings: [Self.interactions], token: try await worker.token(Demo.sofia, lifetime: 2))
            let notice = try await socket.message(timeout: .seconds(6)) { $0.event == "system" && $0.payload["status"] == "error" }
            #expect(notice?.payload["extension"] == "system")
            #expect(try await socket.nextMessage()?.event == "phx_close")
            _ = try await socket.close()
        }
    }

    @Test func badFramesAreAnsweredAndTheSocketStaysUp() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            socket.send("this is not json")
            let notJSON = try #require(try await socket.nextMessage())
            #expect(notJSON.event == "phx_reply")
            #expect(notJSON.payload["status"] == "error")
            #expect(notJSON.payload["response"]?["reason"]?.stringValue?.hasPrefix("MalformedMessage") == true)

            _ = try await socket.join("realtime:feed", bindings: [], ref: "1")
            socket.send(topic: "realtime:feed", event: "shout", payload: [:], ref: "2", joinRef: "1")
            let unknown = try #require(try await socket.nextMessage())
            #expect(unknown.ref == "2")
            #expect(unknown.payload["response"]?["reason"]?.stringValue?.hasPrefix("UnknownEvent") == true)

            // Over the message limit in frames under it: answered, and the socket stays up
            // (a single frame that large closes it, see WebSocketLimitsTests).
            socket.send(
                #"{"topic":"phoenix","event":"heartbeat","payload":{"blob":""# + String(repeating: "x", count: 1 << 20) + #""},"ref":"9"}"#,
                fragmentBytes: 64 * 1024)
            let huge = try #require(try await socket.nextMessage(timeout: .seconds(10)))
            #expect(huge.payload["response"]?["reason"]?.stringValue?.hasPrefix("MessageTooLarge") == true)

            socket.send(#"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"10"}"#)
            #expect(try await socket.nextMessage()?.ref == "10")
            let other = try await worker.connect(token: try await worker.token(Demo.marcus))
            _ = try await other.close()
            _ = try await socket.close()
        }
    }

    @Test func healthAndMetrics() async throws {
        try await WorkerHarness.with { worker in
            let (healthBody, healthStatus) = try await Self.get("http://127.0.0.1:\(worker.port)/health")
            #expect(healthStatus == 200)
            #expect(healthBody.contains("ok"))
            let (metrics, metricsStatus) = try await Self.get("http://127.0.0.1:\(worker.port)/metrics")
            #expect(metricsStatus == 200)
            for name in [
                "realtime_clients", "realtime_subscriptions", "realtime_changes_received_total", "realtime_messages_sent_total",
                "realtime_clients_dropped_total", "realtime_database_reconnects_total", "realtime_commit_to_send_seconds_bucket",
            ] {
                #expect(metrics.contains(name), "missing \(name)")
            }
        }
    }

    static func get(_ url: String) async throws -> (String, Int) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return (String(decoding: data, as: UTF8.self), (response as? HTTPURLResponse)?.statusCode ?? 0)
    }
}
