/// Where the snapshot poller stands: which transactions it has already read.
///
/// A row of `realtime.changes` is new iff its writer's transaction was not visible in the
/// previous poll's snapshot. Each round takes a fresh snapshot in the same statement as the
/// read, reads the rows that became visible since the previous one (in pages, by id), and
/// then adopts it. Transactions that commit out of id order are therefore picked up by
/// whichever round first sees them committed, once. No set of seen ids is kept. Pages
/// are read in (xid, id) order, the order of the index that serves them.
public struct ChangeCursor: Sendable, Hashable {
    /// The snapshot (`pg_snapshot` text) the last finished round read up to.
    public private(set) var snapshot: String
    /// A round in progress: its snapshot and the last id delivered from it.
    public private(set) var pendingRound: PendingRound?

    /// A partially read round (more pages to come).
    public struct PendingRound: Sendable, Hashable {
        public var snapshot: String
        /// The (xid, id) of the last row delivered from this round.
        public var last: Position
    }

    /// A row's place in page order: its transaction (xid8 text) and id.
    public struct Position: Sendable, Hashable {
        public var xid: String
        public var id: Int64

        public init(xid: String, id: Int64) {
            self.xid = xid
            self.id = id
        }
    }

    /// Starts at `snapshot`: changes already visible in it are history and not delivered.
    public init(snapshot: String) {
        self.snapshot = snapshot
    }

    /// True while a round has pages left.
    public var isMidRound: Bool { pendingRound != nil }

    /// Records a page of a round: the round's snapshot, the page's last row, whether it was full.
    public mutating func advance(roundSnapshot: String, last: Position?, pageWasFull: Bool) {
        if pageWasFull, let last {
            pendingRound = PendingRound(snapshot: roundSnapshot, last: last)
        } else {
            snapshot = roundSnapshot
            pendingRound = nil
        }
    }
}
