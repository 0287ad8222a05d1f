import Hummingbird
import NIOCore
import Synchronization

extension Request {
    /// The whole body, refused with ``BodyTooLarge`` past `limit` bytes (before reading it all),
    /// or with ``BodyBudgetExhausted`` while the bodies being read on every connection together
    /// already hold `budget`'s limit.
    public func collectBody(upTo limit: Int, budget: RequestBodyBudget) async throws -> ByteBuffer {
        let declared = headers[.contentLength].flatMap(Int.init)
        if let declared, declared > limit { throw BodyTooLarge(limit: limit) }
        var reserved = 0
        defer { budget.release(reserved) }
        // Bytes count as they arrive: a client announcing a megabyte and sending a kilobyte every
        // few seconds holds a kilobyte (taking the declared length at once let 130 such sockets
        // refuse every body). The buffer is allocated once for a declared length: grown chunk by
        // chunk it would hold up to twice the body; untouched, its pages cost nothing yet.
        var collected = ByteBufferAllocator().buffer(capacity: declared ?? 0)
        for try await chunk in body {
            guard collected.readableBytes + chunk.readableBytes <= limit else { throw BodyTooLarge(limit: limit) }
            guard budget.reserve(chunk.readableBytes) else { throw BodyBudgetExhausted() }
            reserved += chunk.readableBytes
            var chunk = chunk
            collected.writeBuffer(&chunk)
        }
        return collected
    }
}


/// The bytes of request bodies being read, on every connection together.
///
/// Each body is capped by its API, but a client may open thousands of connections and hold
/// each body one byte short of its end: 300 connections of 1 MiB held 400 MB until they timed
/// out. Past this budget a body is refused (503 with `Retry-After`) instead.
public final class RequestBodyBudget: Sendable {
    /// The most bytes bodies may hold at once.
    public let limit: Int
    private let used = Atomic<Int>(0)

    /// A budget of `limit` bytes (``HTTPLimits/maximumBufferedBodyBytes``).
    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes held now.
    public var bytesInUse: Int { used.load(ordering: .relaxed) }

    /// Takes `bytes` from the budget; false (taking nothing) when they do not fit.
    func reserve(_ bytes: Int) -> Bool {
        var current = used.load(ordering: .relaxed)
        while true {
            guard current + bytes <= limit else { return false }
            let (exchanged, original) = used.compareExchange(
                expected: current, desired: current + bytes, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
    }

    /// Gives back what ``reserve(_:)`` took.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        used.subtract(bytes, ordering: .relaxed)
    }
}
