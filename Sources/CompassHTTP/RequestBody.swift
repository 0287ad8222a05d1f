import Hummingbird
import NIOCore
import Synchronization

extension Request {
    /// The whole body, refused with ``BodyTooLarge`` past `limit` bytes (before reading it all),
    /// or with ``BodyBudgetExhausted`` while the bodies being read on every connection together
    /// already hold `budget`'s limit.
    public func collectBody(upTo limit: Int, budget: ByteBudget) async throws -> ByteBuffer {
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
