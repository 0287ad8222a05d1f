import Hummingbird
import NIOCore

extension Request {
    /// The whole body, refused with ``BodyTooLarge`` past `limit` bytes (before reading it all).
    public func collectBody(upTo limit: Int) async throws -> ByteBuffer {
        if let length = headers[.contentLength].flatMap(Int.init), length > limit { throw BodyTooLarge(limit: limit) }
        var collected = ByteBuffer()
        for try await chunk in body {
            guard collected.readableBytes + chunk.readableBytes <= limit else { throw BodyTooLarge(limit: limit) }
            var chunk = chunk
            collected.writeBuffer(&chunk)
        }
        return collected
    }
}

/// A request body passed the API's size limit; each API words the 413 in its own shape.
public struct BodyTooLarge: Error, Sendable, CustomStringConvertible {
    /// The limit, in bytes.
    public var limit: Int

    public var description: String { "request body is larger than \(limit) bytes" }
}
