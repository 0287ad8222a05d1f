import NIOCore
import ServiceLifecycle

extension CompassServer {
    /// A server started by ``withRunning(readinessTimeout:_:)``: its port and its group.
    public struct Running: Sendable {
        /// The port it listens on (the configured one, or the one picked for port 0).
        public let port: Int
        /// Its services; `triggerGracefulShutdown()` stops it as SIGTERM would.
        public let group: ServiceGroup
    }

    /// Runs the server without signal handling for the duration of `body`, which starts once
    /// it listens and `/health` would answer ok; then shuts it down gracefully and waits.
    /// Tests and benchmarks run servers this way.
    public func withRunning<T: Sendable>(
        readinessTimeout: Duration = .seconds(10), _ body: (Running) async throws -> T
    ) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let group = makeServiceGroup(gracefulShutdownSignals: []) { channel in
            portContinuation.yield(channel.localAddress?.port ?? 0)
        }
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let result: Result<T, any Error>
            do {
                var iterator = ports.makeAsyncIterator()
                guard let port = await iterator.next() else { throw ServerNotReady(reason: "the listener never started") }
                let deadline = ContinuousClock.now + readinessTimeout
                while let reason = apis.lazy.compactMap(\.unreadyReason).first {
                    guard ContinuousClock.now < deadline else { throw ServerNotReady(reason: reason) }
                    try await Task.sleep(for: .milliseconds(20))
                }
                result = .success(try await body(Running(port: port, group: group)))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try result.get()
        }
    }
}

/// The server did not become ready in time (the reason `/health` would give).
public struct ServerNotReady: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "the server is not ready: \(reason)" }
}
