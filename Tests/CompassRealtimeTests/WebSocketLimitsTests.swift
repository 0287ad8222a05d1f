import CompassHTTP
import CompassTestSupport
import Foundation
import HTTPTypes
import NIOWebSocket
import Testing

@testable import CompassRealtime

/// The caps one connection lives under: channels, bindings per join, frame size, NUL bytes.
@Suite("WebSocket limits, in process")
struct WebSocketLimitsTests {
    static let interactions: RealtimeJSON = ["event": "INSERT", "schema": "public", "table": "interactions"]

    /// The reason of a refused join's reply.
    static func reason(_ reply: RealtimeMessage?) -> String? {
        reply?.payload["response"]?["reason"]?.stringValue
    }

    @Test func joinsCarryingTooManyBindingsAreRefused() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            let limit = RealtimeConfiguration().maximumBindingsPerJoin
            let tooMany = try await socket.join("realtime:big", bindings: Array(repeating: Self.interactions, count: 2_000), ref: "1")
            #expect(tooMany?.payload["status"] == "error")
            #expect(
                Self.reason(tooMany)
                    == "PostgresChangesLimitReached: Too many postgres_changes bindings (2000 sent, at most \(limit) per join)")
            #expect(worker.hub.registry.counts.channels == 0)

            let atTheCap = try await socket.join("realtime:big", bindings: Array(repeating: Self.interactions, count: limit), ref: "2")
            #expect(atTheCap?.payload["status"] == "ok")
            #expect(atTheCap?.payload["response"]?["postgres_changes"]?.arrayValue?.count == limit)
            _ = try await socket.close()
        }
    }

    @Test func channelsBeyondTheCapAreRefusedAndRejoinsStillWork() async throws {
        try await WorkerHarness.with(adjust: { $0.maximumChannelsPerConnection = 2 }) { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            #expect(try await socket.join("realtime:a", bindings: [], ref: "1")?.payload["status"] == "ok")
            #expect(try await socket.join("realtime:b", bindings: [], ref: "2")?.payload["status"] == "ok")
            let third = try await socket.join("realtime:c", bindings: [], ref: "3")
            #expect(Self.reason(third)?.hasPrefix("ChannelRateLimitReached: Too many channels") == true)
            // Joining an already joined topic again replaces it, so it is not a new channel.
            #expect(try await socket.join("realtime:b", bindings: [], ref: "4")?.payload["status"] == "ok")
            socket.send(topic: "realtime:a", event: "phx_leave", ref: "5", joinRef: "1")
            _ = try await socket.message { $0.event == "phx_close" && $0.topic == "realtime:a" }
            #expect(try await socket.join("realtime:c", bindings: [], ref: "6")?.payload["status"] == "ok")
            _ = try await socket.close()
        }
    }

    /// Every connection's bindings together are bounded: a join past the total is refused, and
    /// a channel left makes room again.
    @Test func bindingsPastTheServersTotalAreRefused() async throws {
        try await WorkerHarness.with(adjust: { $0.maximumBindings = 3 }) { worker in
            let first = try await worker.connect(token: try await worker.token(Demo.sofia))
            let second = try await worker.connect(token: try await worker.token(Demo.marcus))
            #expect(try await first.join("realtime:a", bindings: [Self.interactions, Self.interactions], ref: "1")?.payload["status"] == "ok")
            let over = try await second.join("realtime:b", bindings: [Self.interactions, Self.interactions], ref: "1")
            #expect(Self.reason(over)?.hasPrefix("PostgresChangesLimitReached: the server holds its most bindings (3)") == true, "\(String(describing: over))")
            #expect(try await second.join("realtime:c", bindings: [Self.interactions], ref: "2")?.payload["status"] == "ok")
            // Re-joining a topic replaces its bindings rather than adding to them.
            #expect(try await first.join("realtime:a", bindings: [Self.interactions, Self.interactions], ref: "3")?.payload["status"] == "ok")
            first.send(topic: "realtime:a", event: "phx_leave", ref: "4", joinRef: "3")
            _ = try await first.message { $0.event == "phx_close" && $0.topic == "realtime:a" }
            #expect(try await second.join("realtime:b", bindings: [Self.interactions, Self.interactions], ref: "5")?.payload["status"] == "ok")
            _ = try await first.close()
            _ = try await second.close()
        }
    }

    /// One client address holds at most its share of the bindings, counted across its
    /// connections (a wildcard counts every table it binds); other addresses still join.
    @Test func oneAddressHoldsAtMostItsShareOfBindings() async throws {
        try await WorkerHarness.with(
            adjust: { $0.maximumBindingsPerAddress = 3 },
            adjustServer: { $0.trustedProxies = try TrustedProxies("127.0.0.0/8") }
        ) { worker in
            let from: (String) -> HTTPFields = { [HTTPField.Name("X-Forwarded-For")!: $0] }
            let first = try await worker.connect(token: try await worker.token(Demo.sofia), headers: from("203.0.113.7"))
            let second = try await worker.connect(token: try await worker.token(Demo.marcus), headers: from("203.0.113.7"))
            let elsewhere = try await worker.connect(token: try await worker.token(Demo.marcus), headers: from("198.51.100.2"))
            #expect(try await first.join("realtime:a", bindings: [Self.interactions, Self.interactions], ref: "1")?.payload["status"] == "ok")
            let over = try await second.join("realtime:b", bindings: [Self.interactions, Self.interactions], ref: "1")
            #expect(
                Self.reason(over)?.hasPrefix("PostgresChangesLimitReached: channels from this address hold their most bindings (3)") == true,
                "\(String(describing: over))")
            // A wildcard binds every table of the schema: far more than the address has left.
            let everything: RealtimeJSON = ["event": "*", "schema": "public"]
            #expect(Self.reason(try await second.join("realtime:c", bindings: [everything], ref: "2"))?.hasPrefix("PostgresChangesLimitReached") == true)
            #expect(try await elsewhere.join("realtime:b", bindings: [Self.interactions, Self.interactions], ref: "1")?.payload["status"] == "ok")
            #expect(try await second.join("realtime:b", bindings: [Self.interactions], ref: "3")?.payload["status"] == "ok")
            // A connection that closes gives its bindings back to its address.
            _ = try await first.close()
            try await waitUntil { worker.hub.registry.bindingCount(address: "203.0.113.7") == 1 }
            #expect(try await second.join("realtime:d", bindings: [Self.interactions, Self.interactions], ref: "4")?.payload["status"] == "ok")
            _ = try await second.close()
            _ = try await elsewhere.close()
        }
    }

    /// Joins arriving together cannot pass the total between them: the registry checks it under its lock.
    @Test func simultaneousJoinsCannotPassTheTotal() async throws {
        try await WorkerHarness.with(adjust: { $0.maximumBindings = 10 }) { worker in
            let sockets = try await withThrowingTaskGroup(of: TestSocket.self) { group in
                for _ in 0..<8 { group.addTask { try await worker.connect(token: try await worker.token(Demo.sofia)) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let bindings = [Self.interactions, Self.interactions, Self.interactions]
            let statuses = try await withThrowingTaskGroup(of: RealtimeJSON?.self) { group in
                for socket in sockets { group.addTask { try await socket.join("realtime:race", bindings: bindings, ref: "1")?.payload["status"] } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == "ok" }.count == 3, "\(statuses)")
            #expect(worker.hub.registry.counts.bindings == 9)
            for socket in sockets { _ = try await socket.close() }
        }
    }

    /// The binding caps count bindings; topics and filters are bounded in bytes so that a count
    /// also bounds memory (250 KB per channel let one address hold gigabytes).
    @Test func longTopicsAndFiltersAreRefused() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            let longTopic = "realtime:" + String(repeating: "t", count: RealtimeConfiguration.maximumTopicBytes)
            #expect(Self.reason(try await socket.join(longTopic, bindings: [], ref: "1"))?.hasPrefix("TopicTooLong") == true)
            func filtered(_ filter: String) -> RealtimeJSON {
                ["event": "INSERT", "schema": "public", "table": "interactions", "filter": .string(filter)]
            }
            let long = try await socket.join(
                "realtime:f", bindings: [filtered("content=eq." + String(repeating: "x", count: RealtimeConfiguration.maximumFilterBytes))],
                ref: "2")
            #expect(Self.reason(long)?.hasPrefix("PostgresChangesLimitReached: a filter may be at most") == true, "\(String(describing: long))")
            #expect(worker.hub.registry.counts.channels == 0)
            #expect(try await socket.join("realtime:f", bindings: [filtered("content=eq.short")], ref: "3")?.payload["status"] == "ok")
            _ = try await socket.close()
        }
    }

    @Test func capsAreReadFromTheEnvironment() throws {
        let configuration = try RealtimeConfiguration(
            reading: EnvironmentReader([
                "COMPASS_REALTIME_MAX_CHANNELS_PER_CLIENT": "7", "COMPASS_REALTIME_MAX_BINDINGS_PER_JOIN": "9",
                "COMPASS_REALTIME_MAX_BINDINGS_PER_ADDRESS": "11",
            ]))
        #expect(configuration.maximumChannelsPerConnection == 7)
        #expect(configuration.maximumBindingsPerJoin == 9)
        #expect(configuration.maximumBindingsPerAddress == 11)
        #expect(throws: ConfigurationError.self) {
            try RealtimeConfiguration(reading: EnvironmentReader(["COMPASS_REALTIME_MAX_BINDINGS_PER_JOIN": "0"]))
        }
    }

    @Test func aFrameOverTheMessageLimitClosesTheSocketWith1009() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            let limit = worker.hub.configuration.maximumMessageBytes
            socket.send(#"{"topic":"phoenix","event":"heartbeat","payload":{"blob":""# + String(repeating: "x", count: limit) + #""},"ref":"9"}"#)
            let close = try await socket.closed()
            #expect(close?.closeCode == .messageTooLarge)
            // Other clients are unaffected.
            let other = try await worker.connect(token: try await worker.token(Demo.marcus))
            other.send(#"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"1"}"#)
            #expect(try await other.nextMessage()?.ref == "1")
            _ = try await other.close()
        }
    }

    @Test func nulBytesInBindingsGetAClearSystemError() async throws {
        try await WorkerHarness.with { worker in
            let socket = try await worker.connect(token: try await worker.token(Demo.sofia))
            let bindings: [(String, RealtimeJSON)] = [
                ("filter", ["event": "*", "schema": "public", "table": "interactions", "filter": "content=eq.a\u{0}b"]),
                ("table", ["event": "*", "schema": "public", "table": "inter\u{0}actions"]),
                ("schema", ["event": "*", "schema": "pub\u{0}lic"]),
            ]
            for (index, (what, binding)) in bindings.enumerated() {
                let ref = String(index + 1)
                let reply = try await socket.join("realtime:nul-\(what)", bindings: [binding], ref: ref)
                // As for any invalid binding: the join is answered ok (ids keep the clients in step), then a system error.
                #expect(reply?.payload["status"] == "ok", "\(what)")
                let system = try await socket.message { $0.event == "system" && $0.topic == "realtime:nul-\(what)" }
                #expect(system?.payload["status"] == "error", "\(what)")
                let message = system?.payload["message"]?.stringValue ?? ""
                #expect(message.contains("cannot contain NUL characters"), "\(what): \(message)")
                #expect(!message.contains("database"), "\(what): \(message)")
            }
            // The connection is intact.
            socket.send(#"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":"hb"}"#)
            #expect(try await socket.message { $0.ref == "hb" }?.payload["status"] == "ok")
            _ = try await socket.close()
        }
    }
}
