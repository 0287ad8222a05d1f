import Hummingbird

/// A reply body from Postgres's bytes, without making a `String` of them first (a validation
/// and two copies of every byte, for a body that goes out unchanged).
enum ReplyBytes {
    /// `bytes` in a buffer; bytes that are not UTF-8 (a `SQL_ASCII` database) are repaired as
    /// `String(decoding:as:)` repairs them, so the reply is what a decoded body would have been.
    static func buffer(_ bytes: ArraySlice<UInt8>) -> ByteBuffer {
        bytes.withUnsafeBufferPointer { bytes in
            if (try? UTF8Span(validating: Span(_unsafeElements: bytes))) != nil { return ByteBuffer(bytes: bytes) }
            return ByteBuffer(string: String(decoding: bytes, as: UTF8.self))
        }
    }
}
