/// One committed row change of a realtime-enabled table, as stored in `realtime.changes`.
public struct RealtimeChange: Sendable, Hashable {
    /// `realtime.changes.id`: the order changes were recorded in.
    public var id: Int64
    /// The table's schema.
    public var schema: String
    /// The table's name.
    public var table: String
    /// INSERT, UPDATE or DELETE.
    public var type: RealtimeChangeType
    /// The new row as `to_jsonb` wrote it (INSERT, UPDATE).
    public var recordJSON: String?
    /// The old row as `to_jsonb` wrote it (UPDATE, DELETE).
    public var oldRecordJSON: String?
    /// When the change was recorded (the writer's clock), in microseconds since 1970: the `commit_timestamp`.
    public var recordedAtMicroseconds: Int64
    /// Read without its rows, because no channel watched its table (see
    /// ``RealtimeChangeSink/wantedTables``): it is for no one.
    public var rowsLeftUnread = false

    /// Makes a change.
    public init(
        id: Int64, schema: String, table: String, type: RealtimeChangeType, recordJSON: String?, oldRecordJSON: String?,
        recordedAtMicroseconds: Int64
    ) {
        self.id = id
        self.schema = schema
        self.table = table
        self.type = type
        self.recordJSON = recordJSON
        self.oldRecordJSON = oldRecordJSON
        self.recordedAtMicroseconds = recordedAtMicroseconds
    }
}

/// Where a change source hands its changes: the fan-out.
public protocol RealtimeChangeSink: Sendable {
    /// Takes the next batch, in order. The source moves past a batch only once this returns,
    /// so a batch is never skipped. The sink retries its own transient database work; it
    /// throws only when it delivered none of the batch, and the source then offers the
    /// same batch again later instead of moving on.
    func deliver(_ changes: [RealtimeChange]) async throws(RealtimeDeliveryFailure)
    /// The source's link to the database is up; `reconnected` after it had dropped.
    func sourceConnected(reconnected: Bool) async
    /// The source's link to the database dropped; it reconnects on its own.
    func sourceDisconnected()
    /// The tables whose changes the sink wants with their rows now (nil: every table's).
    /// The source reads other changes without their rows, which can be megabytes each.
    var wantedTables: Set<RealtimeTableName>? { get }
}

extension RealtimeChangeSink {
    public func sourceDisconnected() {}
    public var wantedTables: Set<RealtimeTableName>? { nil }
}

/// A batch the fan-out could not deliver to anyone; the source keeps its place and retries.
public struct RealtimeDeliveryFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong (no row data).
    public var reason: String

    /// Makes a failure.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}

/// Produces the committed changes of enabled tables, each exactly once, roughly in commit order.
///
/// This is the seam DESIGN §8 asks for: the stored-changes poller below can be replaced
/// by a logical-replication reader without touching the fan-out.
public protocol RealtimeChangeSource: Sendable {
    /// Runs until the task is cancelled, delivering batches into `sink`.
    func run(into sink: some RealtimeChangeSink) async throws
}
