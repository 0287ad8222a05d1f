import CompassTestSupport
import CompassTokens
import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOWebSocket
import ServiceLifecycle
import Synchronization
import Testing
import CompassServer
import HummingbirdWSClient

@testable import CompassRealtime
@testable import Postgres

/// A live worker (the whole server, realtime included) on a free port over a fresh demo database.
struct WorkerHarness {
    static let secret = "worker-tests-secret-0123456789abcdef"
    let database: TestDatabase
    let hub: RealtimeHub
    let port: Int
    let issuer: AccessTokenIssuer
    let writer: PostgresConnection
    let group: ServiceGroup
    /// The `application_name` of the worker's LISTEN connection (to terminate it from a test).
    let listenApplicationName: String

    /// Runs `body` against a running worker; `adjust` tunes the realtime settings first.
    static func with(
        adjust: (inout RealtimeConfiguration) -> Void = { _ in },
        adjustServer: (inout ServerConfiguration) throws -> Void = { _ in },
        _ body: (WorkerHarness) async throws -> Void
    ) async throws {
        try await TestDatabase.with(demoData: true) { database in
            let listenApplicationName = "rt-worker-listen-\(UUID().uuidString.prefix(8))"
            var listener = database.configuration
            listener.set("application_name", listenApplicationName)
            var configuration = ServerConfiguration(database: database.configuration, listener: listener, jwtSecret: secret)
            configuration.port = 0
            configuration.realtime.shutdownGracePeriod = .seconds(3)
            adjust(&configuration.realtime)
            try adjustServer(&configuration)
            let server = try await CompassServer(configuration: configuration, logger: TestDatabase.logger)
            let writer = try await database.connect()
            try await server.withRunning { running in
                try await body(WorkerHarness(
                    database: database, hub: server.realtime.hub, port: running.port,
                    issuer: try await AccessTokenIssuer(secret: secret), writer: writer, group: running.group,
                    listenApplicationName: listenApplicationName))
            }
            await writer.close()
        }
    }

    /// A token for a demo user (or another role), valid for `lifetime` seconds.
    func token(_ user: String?, role: APIRole = .authenticated, lifetime: TimeInterval = 3600) async throws -> String {
        try await issuer.token(role: role, subject: user, lifetime: lifetime)
    }

    /// Opens a WebSocket with `apikey` and `vsn` in the query.
    func connect(
        token: String, vsn: String? = "1.0.0", path: String = "/realtime/v1/websocket", headers: HTTPFields = [:]
    ) async throws -> TestSocket {
        var query = "apikey=\(token)"
        if let vsn { query += "&vsn=\(vsn)" }
        return try await TestSocket.connect(url: "ws://127.0.0.1:\(port)\(path)?\(query)", headers: headers)
    }

    /// A realtime-enabled table `public.<name>` (id, n, owner) whose rows only their `owner` may read.
    func createOwnedRowsTable(_ name: String) async throws {
        try await writer.executeScript(
            unsafeSQL: """
                CREATE TABLE public.\(name) (id int8 PRIMARY KEY, n int4 NOT NULL, owner uuid NOT NULL);
                ALTER TABLE public.\(name) ENABLE ROW LEVEL SECURITY;
                CREATE POLICY own_rows ON public.\(name) FOR SELECT TO authenticated USING (owner = auth.uid());
                GRANT SELECT ON public.\(name) TO authenticated;
                SELECT realtime.enable('public.\(name)');
                """)
    }

    /// Same as ``FanOutHarness/insertInteraction(by:content:on:)``.
    @discardableResult
    func insertInteraction(by athlete: String, content: String = "hello") async throws -> String {
        let result = try await writer.query(
            """
            INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction, content)
            VALUES (\(Demo.family(of: athlete))::uuid, \(athlete)::uuid, \(athlete)::uuid, 'email', 'outbound', \(content))
            RETURNING id::text
            """)
        return try result[0].decode(String.self, at: 0)
    }
}

/// A WebSocket client driven from a test: send text, await messages, see the close frame.
final class TestSocket: Sendable {
    private let incoming: AsyncStream<String>
    private let outgoing: AsyncStream<Command>.Continuation
    private let done: Task<WebSocketCloseFrame?, any Error>
    private let reader: MessageReader

    enum Command: Sendable {
        case text(String)
        /// One text message split into frames of at most `fragmentBytes`.
        case fragmented(String, fragmentBytes: Int)
        case close
    }

    private init(
        incoming: AsyncStream<String>, outgoing: AsyncStream<Command>.Continuation, done: Task<WebSocketCloseFrame?, any Error>
    ) {
        self.incoming = incoming
        self.outgoing = outgoing
        self.done = done
        self.reader = MessageReader(incoming)
    }

    /// Connects; throws if the upgrade is refused.
    static func connect(url: String, reading: Bool = true, headers: HTTPFields = [:]) async throws -> TestSocket {
        let (incoming, received) = AsyncStream.makeStream(of: String.self)
        let (commands, outgoing) = AsyncStream.makeStream(of: Command.self)
        let (opened, openedContinuation) = AsyncStream.makeStream(of: Bool.self)
        let done = Task {
            defer {
                received.finish()
                openedContinuation.finish()
            }
            return try await WebSocketClient.connect(
                url: url, configuration: .init(maxFrameSize: 16 << 20, additionalHeaders: headers), logger: Logger(label: "test-client")
            ) { inbound, outbound, _ in
                openedContinuation.yield(true)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for try await message in inbound.messages(maxSize: 64 << 20) {
                            if case .text(let text) = message { received.yield(text) }
                        }
                    }
                    group.addTask {
                        for await command in commands {
                            switch command {
                            case .text(let text): try await outbound.write(.text(text))
                            case .fragmented(let text, let size):
                                var remaining = ByteBuffer(string: text)
                                var opcode = WebSocketOpcode.text
                                while remaining.readableBytes > 0 {
                                    let part = remaining.readSlice(length: min(size, remaining.readableBytes))!
                                    let frame = WebSocketFrame(fin: remaining.readableBytes == 0, opcode: opcode, data: part)
                                    try await outbound.write(.custom(frame))
                                    opcode = .continuation
                                }
                            case .close:
                                try await outbound.close(.normalClosure, reason: nil)
                                return
                            }
                        }
                    }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
        var openedIterator = opened.makeAsyncIterator()
        guard await openedIterator.next() == true else {
            _ = try await done.value
            throw HarnessError("the upgrade was refused")
        }
        return TestSocket(incoming: incoming, outgoing: outgoing, done: done)
    }

    /// Sends a text frame.
    func send(_ text: String) {
        outgoing.yield(.text(text))
    }

    /// Sends one text message as several frames of at most `fragmentBytes` each.
    func send(_ text: String, fragmentBytes: Int) {
        outgoing.yield(.fragmented(text, fragmentBytes: fragmentBytes))
    }

    /// Sends a 1.0.0 object frame.
    func send(topic: String, event: String, payload: RealtimeJSON = [:], ref: String?, joinRef: String? = nil) {
        send(RealtimeCodec.encode(RealtimeMessage(topic: topic, event: event, payload: payload, ref: ref, joinRef: joinRef), version: .v1)
            .replacingOccurrences(of: #"{"event""#, with: #"{"join_ref":\#(joinRef.map(RealtimeJSON.quoted) ?? "null"),"event""#))
    }

    /// The next text message, or nil after `timeout` or when the socket ends.
    func next(timeout: Duration = .seconds(5)) async -> String? {
        await reader.next(timeout: timeout)
    }

    /// The next message decoded; nil on timeout.
    func nextMessage(timeout: Duration = .seconds(5)) async throws -> RealtimeMessage? {
        guard let text = await next(timeout: timeout) else { return nil }
        return try RealtimeCodec.decode(text)
    }

    /// Messages until one satisfies `match` (returned), or nil on timeout.
    func message(
        timeout: Duration = .seconds(5), where match: (RealtimeMessage) -> Bool
    ) async throws -> RealtimeMessage? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard let message = try await nextMessage(timeout: deadline - ContinuousClock.now) else { return nil }
            if match(message) { return message }
        }
        return nil
    }

    /// Closes from the client side and returns the server's close frame.
    func close() async throws -> WebSocketCloseFrame? {
        outgoing.yield(.close)
        return try await closed()
    }

    /// Waits for the connection to end; the server's close frame, if any.
    func closed() async throws -> WebSocketCloseFrame? {
        try await done.value
    }

    /// Joins `topic` with `bindings`; returns the reply.
    func join(
        _ topic: String, bindings: [RealtimeJSON], token: String? = nil, ref: String = "1"
    ) async throws -> RealtimeMessage? {
        var payload: [String: RealtimeJSON] = [
            "config": ["broadcast": ["self": false], "presence": ["key": ""], "private": false, "postgres_changes": .array(bindings)]
        ]
        if let token { payload["access_token"] = .string(token) }
        send(topic: topic, event: "phx_join", payload: .object(payload), ref: ref, joinRef: ref)
        return try await message { $0.event == RealtimeEvent.reply && $0.ref == ref }
    }
}

/// Reads the incoming stream with timeouts without losing a message to a timed-out wait.
private final class MessageReader: Sendable {
    private let stream: AsyncStream<String>
    private let pending = Mutex<Task<String?, Never>?>(nil)

    init(_ stream: AsyncStream<String>) {
        self.stream = stream
    }

    func next(timeout: Duration) async -> String? {
        let stream = self.stream
        let task = pending.withLock { pending -> Task<String?, Never> in
            if let pending { return pending }
            let task = Task { () -> String? in
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            pending = task
            return task
        }
        // Race the read against a timer without waiting for the loser (a task's value
        // cannot be cancelled); a late value stays in `pending` for the next call.
        let (arrived, value) = await withCheckedContinuation { (continuation: CheckedContinuation<(Bool, String?), Never>) in
            let resumed = Mutex(false)
            let finish: @Sendable ((Bool, String?)) -> Void = { outcome in
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: outcome) }
            }
            Task { finish((true, await task.value)) }
            Task {
                try? await Task.sleep(for: timeout)
                finish((false, nil))
            }
        }
        if arrived { pending.withLock { $0 = nil } }
        return value
    }
}
