import CompassTokens
import Logging
import Postgres
import Synchronization

/// The fan-out: takes batches from the change source and queues each change, once, on every
/// channel whose bindings match it and whose subscriber may read the row.
///
/// Per batch: read the rows (catalog metadata cached), match them against the registry
/// under one lock, plan who may see what (``VisibilityPlan``), ask Postgres the plan's
/// checks in one round trip, then queue the frames in change order. Queuing never waits on a client: a full
/// queue closes that client instead (see ``ClientOutbox``).
public final class RealtimeDispatcher: RealtimeChangeSink {
    let registry: SubscriptionRegistry
    let catalog: RealtimeCatalog
    let database: RealtimeDatabase
    let metrics: RealtimeMetrics
    let authorizer: RealtimeAuthorizer
    /// Records larger than this are sent cut down, with an `Error 413` (as the reference server does).
    let maximumRecordBytes: Int
    let logger: Logger
    private let sourceState = Mutex<(connected: Bool, connections: Int)>((false, 0))

    /// Makes a dispatcher over a registry.
    public init(
        registry: SubscriptionRegistry, catalog: RealtimeCatalog, database: RealtimeDatabase, metrics: RealtimeMetrics,
        maximumRecordBytes: Int = 1 << 20, logger: Logger
    ) {
        self.registry = registry
        self.catalog = catalog
        self.database = database
        self.metrics = metrics
        self.authorizer = RealtimeAuthorizer(database: database, metrics: metrics)
        self.maximumRecordBytes = maximumRecordBytes
        self.logger = logger
    }

    /// True while the change source has its LISTEN connection (`/health` waits for the first, `/ready` for each).
    public var isSourceConnected: Bool {
        sourceState.withLock { $0.connected }
    }

    public func sourceConnected(reconnected: Bool) async {
        sourceState.withLock {
            $0.connected = true
            $0.connections += 1
        }
        if reconnected {
            metrics.databaseReconnects.increment()
            logger.info("listen connection re-established; catching up from realtime.changes")
        }
    }

    /// True once the change source has had its LISTEN connection (`/health`: the worker has started).
    public var hasSourceConnected: Bool {
        sourceState.withLock { $0.connections > 0 }
    }

    public func sourceDisconnected() {
        sourceState.withLock { $0.connected = false }
    }

    /// The tables some channel watches: the source reads the rows of their changes only.
    public var wantedTables: Set<RealtimeTableName>? { registry.watchedTables }

    public func deliver(_ changes: [RealtimeChange]) async throws(RealtimeDeliveryFailure) {
        metrics.changesReceived.increment(by: Int64(changes.count))
        // A change no channel could match is not parsed: its rows (up to a megabyte each, a
        // page of 2,000) would cost memory and CPU for nobody, and the source did not read
        // them. A channel that joins meanwhile misses it as it would a change committed just
        // before it joined.
        let watched = registry.watchedTables
        let wanted = changes.filter {
            !$0.rowsLeftUnread && watched.contains(RealtimeTableName(schema: $0.schema, table: $0.table))
        }
        metrics.changesUnwatched.increment(by: Int64(changes.count - wanted.count))
        let parsed = await parse(wanted)
        guard !parsed.isEmpty else { return }
        let plan = VisibilityPlan(changes: parsed, matches: await registry.match(parsed))
        let visible: [Set<Int>]
        do {
            visible = try await database.retryingWhileUnavailable("check row visibility") {
                try await authorizer.visibleRows(plan.checks)
            }
        } catch {
            // Nothing of the batch was queued yet: the source offers it again rather than skip it.
            throw RealtimeDeliveryFailure(reason: "visibility checks failed: \(error)")
        }
        for (change, receivers) in zip(parsed, plan.receivers(given: visible)) {
            queue(change, to: receivers)
        }
    }

    /// Queues one change's event on each receiver's client, encoded once per role; a channel
    /// left or re-joined since it was matched gets nothing (see ``ChannelLiveness``).
    func queue(_ change: ParsedChange, to receivers: [ChannelMatch]) {
        var encoded: [APIRole: String] = [:]
        for match in receivers {
            let role = match.channel.claims.role
            let data = encoded[role] ?? RealtimeChangeEvent.data(for: change, role: role, maximumRecordBytes: maximumRecordBytes)
            encoded[role] = data
            let outbox = match.channel.outbox
            let text = RealtimeChangeEvent.frame(data: data, ids: match.ids, topic: match.channel.topic, version: outbox.version)
            let frame = ClientOutbox.Frame(text: text, recordedAtMicroseconds: change.change.recordedAtMicroseconds)
            switch outbox.enqueue(frame, whileJoined: match.liveness) {
            case .queued:
                metrics.eventsQueued.increment()
            case .overflowed:
                metrics.clientsDropped.increment()
                logger.notice("client too slow; closing it", metadata: ["realtime.client": "\(outbox.clientID)"])
            case .dropped, .channelLeft:
                break
            }
        }
    }

    /// Reads each change's rows with its table's metadata; unreadable changes are logged and skipped.
    private func parse(_ changes: [RealtimeChange]) async -> [ParsedChange] {
        var parsed: [ParsedChange] = []
        parsed.reserveCapacity(changes.count)
        // The batch's tables, asked of the catalog (an actor) once each rather than once per change.
        var tables: [RealtimeTableName: RealtimeTableMetadata?] = [:]
        for change in changes {
            let name = RealtimeTableName(schema: change.schema, table: change.table)
            do {
                if tables[name] == nil { tables[name] = .some(try await metadata(for: name)) }
                guard let table = tables[name] ?? nil else { continue }
                var candidate = try ParsedChange(change: change, table: table)
                if candidate.hasUnknownColumns {
                    await catalog.invalidate(name)
                    let reloaded = try await metadata(for: name)
                    tables[name] = .some(reloaded)
                    guard let reloaded else { continue }
                    candidate = try ParsedChange(change: change, table: reloaded)
                }
                parsed.append(candidate)
            } catch {
                logger.error(
                    "change skipped: cannot read it", metadata: ["realtime.change_id": "\(change.id)", "realtime.error": "\(error)"])
            }
        }
        return parsed
    }

    private func metadata(for name: RealtimeTableName) async throws -> RealtimeTableMetadata? {
        try await database.retryingWhileUnavailable("read table metadata") {
            try await catalog.metadata(for: name)
        }
    }
}
