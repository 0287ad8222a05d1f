/// A request body passed the API's size limit; each API words the 413 in its own shape.
public struct BodyTooLarge: Error, Sendable, CustomStringConvertible {
    /// The limit, in bytes.
    public var limit: Int

    public var description: String { "request body is larger than \(limit) bytes" }
}

/// The bodies being read at once already hold the process's budget; each API answers 503.
public struct BodyBudgetExhausted: Error, Sendable, CustomStringConvertible {
    public init() {}

    public var description: String { "the server is reading too many request bodies at once; retry shortly" }
}
