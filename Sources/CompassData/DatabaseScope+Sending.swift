import Postgres

extension DatabaseScope {
    /// How a scope's transactions travel to the server.
    ///
    /// The apps' scopes pipeline every segment. The other ways exist so FeedBenchmark can time
    /// the very same repository code sent as a client without pipelining would send it (the
    /// feed, whose three reads share one segment in a pipeline, then sends one per source).
    public enum Sending: Sendable, Hashable, CaseIterable {
        /// Every segment in one pipelined round trip (the default).
        case pipelined
        /// One round trip per segment (its scope statement and queries pipelined together).
        case segmentBySegment
        /// No pipeline: `BEGIN`, the scope statement, each query and `COMMIT` each wait for their answer.
        case statementByStatement
    }
}
