import CompassTokens
import Logging
import Postgres
import Synchronization

/// The fan-out: takes batches from the change source and queues each change, once, on every
/// channel whose bindings match it and whose subscriber may read the row.
///
/// Per batch: read the rows (catalog metadata cached), match them against the registry
/// under one lock, check visibility for all (table, claims) groups in one pipelined round
/// trip, then queue the frames in change order. Queuing never waits on a client: a full
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
        self.authorizer = RealtimeAuthorizer(database: database)
        self.maximumRecordBytes = maximumRecordBytes
        self.logger = logger
    }

    /// True once the change source has its LISTEN connection (the health check's answer).
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

    public func deliver(_ changes: [RealtimeChange]) async {
        metrics.changesReceived.increment(by: Int64(changes.count))
        let parsed = await parse(changes)
        guard !parsed.isEmpty else { return }
        let matches = registry.match(parsed)

        // Group the rows that need a visibility check by (table, role + claims).
        struct GroupKey: Hashable {
            var table: RealtimeTableName
            var claims: AccessClaims.AuthorizationKey
        }
        var groups: [GroupKey: Int] = [:]
        var checks: [RealtimeAuthorizer.Check] = []
        var rowPositions: [[Int: Int]] = []  // check index → change index → row index in the check
        for (changeIndex, change) in parsed.enumerated() where change.change.type != .delete {
            for match in matches[changeIndex] where match.channel.claims.role != .serviceRole {
                let key = GroupKey(table: change.table.name, claims: match.channel.claims.authorizationKey)
                let checkIndex: Int
                if let existing = groups[key] {
                    checkIndex = existing
                } else {
                    checkIndex = checks.count
                    groups[key] = checkIndex
                    checks.append(RealtimeAuthorizer.Check(table: change.table, key: key.claims, rowKeys: []))
                    rowPositions.append([:])
                }
                guard rowPositions[checkIndex][changeIndex] == nil, let keys = change.keyTexts else { continue }
                rowPositions[checkIndex][changeIndex] = checks[checkIndex].rowKeys.count
                checks[checkIndex].rowKeys.append(keys)
            }
        }
        let visible: [Set<Int>]
        do {
            visible = try await database.retryingWhileUnavailable("check row visibility") {
                try await authorizer.visibleRows(checks)
            }
        } catch {
            logger.error("visibility checks failed; batch not delivered", metadata: ["realtime.error": "\(error)"])
            return
        }

        for (changeIndex, change) in parsed.enumerated() {
            var encoded: [APIRole: String] = [:]
            for match in matches[changeIndex] {
                let claims = match.channel.claims
                let allowed: Bool
                if claims.role == .serviceRole {
                    allowed = true
                } else if change.change.type == .delete {
                    allowed = change.table.view(for: claims.role).canReadKey
                } else {
                    let key = GroupKey(table: change.table.name, claims: claims.authorizationKey)
                    guard let checkIndex = groups[key], let row = rowPositions[checkIndex][changeIndex] else { continue }
                    allowed = visible[checkIndex].contains(row)
                }
                guard allowed else { continue }
                let data =
                    encoded[claims.role]
                    ?? ChangePayloadEncoder.data(for: change, role: claims.role, maximumRecordBytes: maximumRecordBytes)
                encoded[claims.role] = data
                let text = RealtimeCodec.encode(
                    topic: match.channel.topic, event: RealtimeEvent.postgresChanges,
                    payloadJSON: ChangePayloadEncoder.eventPayload(ids: match.ids, data: data), ref: nil, joinRef: nil,
                    version: match.channel.outbox.version)
                switch match.channel.outbox.enqueue(.init(text: text, recordedAtMicroseconds: change.change.recordedAtMicroseconds)) {
                case .queued:
                    metrics.eventsQueued.increment()
                case .overflowed:
                    metrics.clientsDropped.increment()
                    logger.notice(
                        "client too slow; closing it", metadata: ["realtime.client": "\(match.channel.outbox.clientID)"])
                case .dropped:
                    break
                }
            }
        }
    }

    /// Reads each change's rows with its table's metadata; unreadable changes are logged and skipped.
    private func parse(_ changes: [RealtimeChange]) async -> [ParsedChange] {
        var parsed: [ParsedChange] = []
        parsed.reserveCapacity(changes.count)
        for change in changes {
            let name = RealtimeTableName(schema: change.schema, table: change.table)
            do {
                guard let table = try await metadata(for: name) else { continue }
                var candidate = try ParsedChange(change: change, table: table)
                if candidate.hasUnknownColumns {
                    await catalog.invalidate(name)
                    guard let reloaded = try await metadata(for: name) else { continue }
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
