import Foundation
import JWTKit
import Logging
import WSClient

/// N WebSocket clients, client i subscribed (as user i) to the activities addressed to user i.
struct BenchmarkClients {
    let tasks: [Task<Void, Never>]

    /// Connects `count` clients in waves and waits until each has its `system` ok.
    static func connect(
        count: Int, port: Int, secret: String, log: DeliveryLog, timeout: Duration = .seconds(180)
    ) async throws -> BenchmarkClients {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        var tasks: [Task<Void, Never>] = []
        let quiet = Logger(label: "bench-client", factory: { _ in SwiftLogNoOpLogHandler() })
        let before = log.subscribedCount
        for index in 0..<count {
            let user = BenchmarkDatabase.userID(index)
            let token = try await keys.sign(BenchClaims(sub: user, role: "authenticated", aud: "authenticated", exp: Int(Date().timeIntervalSince1970) + 7200))
            let join =
                #"{"topic":"realtime:bench-\#(index)","event":"phx_join","ref":"1","join_ref":"1","payload":{"config":{"postgres_changes":[{"event":"INSERT","schema":"public","table":"activities","filter":"user_id=eq.\#(user)"}]},"access_token":"\#(token)"}}"#
            let url = "ws://127.0.0.1:\(port)/realtime/v1/websocket?apikey=\(token)&vsn=1.0.0"
            tasks.append(Task { await runClient(url: url, join: join, log: log, logger: quiet) })
            if index % 200 == 199 {
                // Waves, so the accept queue and the join checks keep up.
                let target = before + index + 1 - 50
                let waveDeadline = ContinuousClock.now + .seconds(30)
                while log.subscribedCount < target, ContinuousClock.now < waveDeadline { try await Task.sleep(for: .milliseconds(20)) }
            }
        }
        let deadline = ContinuousClock.now + timeout
        while log.subscribedCount < before + count {
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError("only \(log.subscribedCount - before) of \(count) clients subscribed; \(log.failures)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return BenchmarkClients(tasks: tasks)
    }

    func disconnect() {
        for task in tasks { task.cancel() }
    }

    private static func runClient(url: String, join: String, log: DeliveryLog, logger: Logger) async {
        do {
            try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 22), logger: logger) { inbound, outbound, _ in
                try await outbound.write(.text(join))
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while true {
                            try await Task.sleep(for: .seconds(20))
                            try await outbound.write(.text(#"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":null}"#))
                        }
                    }
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 1 << 22) {
                            guard case .text(let text) = message else { continue }
                            let now = ContinuousClock.now
                            if let id = recordID(in: text) {
                                log.received(id, at: now)
                            } else if text.contains("Subscribed to PostgreSQL") {
                                log.subscribed()
                            } else if text.contains(#""status":"error""#) {
                                log.failed(String(text.prefix(300)))
                            }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch {
            if !Task.isCancelled { log.failed("\(error)") }
        }
    }

    /// The record's id from an event frame, without parsing the JSON: `to_jsonb` puts `id` first.
    static func recordID(in text: String) -> String? {
        guard text.hasPrefix(#"{"event":"postgres_changes""#), let marker = text.range(of: #""record":{"id": ""#) else { return nil }
        let start = marker.upperBound
        guard let end = text.index(start, offsetBy: 36, limitedBy: text.endIndex) else { return nil }
        return String(text[start..<end])
    }
}

/// The claims the benchmark's tokens carry.
struct BenchClaims: JWTPayload {
    var sub: String
    var role: String
    var aud: String
    var exp: Int
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
