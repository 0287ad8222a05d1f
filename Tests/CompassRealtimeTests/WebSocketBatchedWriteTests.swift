import CompassTestSupport
import Foundation
import NIOCore
import Testing

@testable import CompassRealtime

/// Frames are written to each socket in batches (every frame waiting goes out with one flush):
/// what a client sees must not change.
@Suite("WebSocket delivery: batched socket writes")
struct WebSocketBatchedWriteTests {
    static let rows = 300

    /// Every `postgres_changes` frame's `record.n` until `count` arrived or 3 s of silence
    /// (after the first, which may be slow on a loaded machine), answering heartbeats on the way.
    static func changes(on socket: TestSocket, count: Int) async throws -> (numbers: [Int], heartbeatReplies: Int) {
        var numbers: [Int] = []
        var replies = 0
        var timeout: Duration = .seconds(15)
        var heartbeat = 0
        while let message = try await socket.message(
            timeout: timeout, where: { $0.event == "postgres_changes" || ($0.topic == "phoenix" && $0.event == "phx_reply") })
        {
            timeout = .seconds(3)
            if message.topic == "phoenix" {
                #expect(message.ref == "hb-\(replies)", "heartbeat replies come in order, each once")
                replies += 1
                continue
            }
            guard case .number(let n)? = message.payload["data"]?["record"]?["n"], let value = Int(n) else { continue }
            numbers.append(value)
            // Heartbeats sent while a burst is being written still get their replies.
            if numbers.count % 100 == 1 {
                socket.send(topic: "phoenix", event: "heartbeat", ref: "hb-\(heartbeat)")
                heartbeat += 1
            }
            if numbers.count == count, replies == heartbeat { break }
        }
        return (numbers, replies)
    }

    @Test func aBurstReachesEachSubscriberInCommitOrderOnceAndOnlyWhereRLSAllows() async throws {
        try await WorkerHarness.with { worker in
            try await worker.createOwnedRowsTable("rt_burst")
            let binding: RealtimeJSON = ["event": "INSERT", "schema": "public", "table": "rt_burst"]
            let sofia = try await worker.connect(token: try await worker.token(Demo.sofia), vsn: "1.0.0")
            let marcus = try await worker.connect(token: try await worker.token(Demo.marcus), vsn: "2.0.0")
            for socket in [sofia, marcus] {
                _ = try #require(try await socket.join("realtime:burst", bindings: [binding]))
                let system = try await socket.message { $0.event == "system" }
                #expect(system?.payload["status"] == "ok")
            }

            // One statement: the whole burst is one batch of the fan-out, so each client gets
            // many frames per socket write. Even n are sofia's, odd n marcus's.
            try await worker.writer.query(
                """
                INSERT INTO public.rt_burst (id, n, owner)
                SELECT n, n, CASE WHEN n % 2 = 0 THEN \(Demo.sofia)::uuid ELSE \(Demo.marcus)::uuid END
                FROM generate_series(1, \(Self.rows)) AS n
                """)
            // Then single-row commits, which the fan-out may read in the same or later batches.
            for n in (Self.rows + 1)...(Self.rows + 20) {
                try await worker.writer.query(
                    "INSERT INTO public.rt_burst (id, n, owner) VALUES (\(n), \(n), \(n % 2 == 0 ? Demo.sofia : Demo.marcus)::uuid)")
            }

            let expected = Array(1...(Self.rows + 20))
            async let sofiaSaw = Self.changes(on: sofia, count: expected.count / 2)
            async let marcusSaw = Self.changes(on: marcus, count: expected.count / 2)
            let (sofiaResult, marcusResult) = try await (sofiaSaw, marcusSaw)
            #expect(sofiaResult.numbers == expected.filter { $0 % 2 == 0 })
            #expect(marcusResult.numbers == expected.filter { $0 % 2 == 1 })
            #expect(sofiaResult.heartbeatReplies >= 1 && marcusResult.heartbeatReplies >= 1)
            _ = try await sofia.close()
            _ = try await marcus.close()
        }
    }

    /// The frames written below NIO's encoder carry RFC 6455's three length forms.
    @Test(arguments: [(0, 2), (125, 2), (126, 4), (65_535, 4), (65_536, 10), (200_000, 10)])
    func textFramesHaveTheHeaderTheirLengthNeeds(length: Int, header: Int) {
        let text = String(repeating: "é", count: length / 2) + String(repeating: "x", count: length % 2)
        var buffer = ByteBuffer()
        WebSocketTextFrame.write(text, to: &buffer)
        #expect(buffer.readableBytes == header + length)
        let first = buffer.readInteger(as: UInt8.self)
        #expect(first == 0x81)  // final text frame
        let marker = buffer.readInteger(as: UInt8.self) ?? 0xFF
        #expect(marker & 0x80 == 0, "a server's frames are not masked")
        let declared: Int?
        switch header {
        case 2: declared = Int(marker)
        case 4: declared = marker == 126 ? buffer.readInteger(as: UInt16.self).map(Int.init) : nil
        default: declared = marker == 127 ? buffer.readInteger(as: UInt64.self).map(Int.init) : nil
        }
        #expect(declared == length)
        let payload = buffer.readString(length: buffer.readableBytes)
        #expect(payload == text)
    }
}
