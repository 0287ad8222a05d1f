import CompassHTTP
import CompassTokens
import Foundation
import Synchronization

/// One binding of a joined channel, resolved to a table and a typed filter.
public struct TableBinding: Sendable, Hashable {
    /// The binding's id (listed in `ids`).
    public var id: Int
    /// The change type, nil for all.
    public var changeType: RealtimeChangeType?
    /// The table it watches.
    public var table: RealtimeTableName
    /// The filter bound to the column's type, if any.
    public var filter: CompiledRealtimeFilter?

    public init(id: Int, changeType: RealtimeChangeType?, table: RealtimeTableName, filter: CompiledRealtimeFilter?) {
        self.id = id
        self.changeType = changeType
        self.table = table
        self.filter = filter
    }
}

/// A joined channel: who joined it, with which token, for which bindings.
public struct ChannelRecord: Sendable {
    /// `realtime:<name>`.
    public var topic: String
    /// The `ref` of the `phx_join`.
    public var joinRef: String?
    /// The token's claims; replaced by `access_token`.
    public var claims: AccessClaims
    /// The valid bindings.
    public var bindings: [TableBinding]
    /// The connection's queue.
    public var outbox: ClientOutbox

    /// Makes a record.
    public init(topic: String, joinRef: String?, claims: AccessClaims, bindings: [TableBinding], outbox: ClientOutbox) {
        self.topic = topic
        self.joinRef = joinRef
        self.claims = claims
        self.bindings = bindings
        self.outbox = outbox
    }
}

/// A joined channel as the registry keeps it: one object, so a match (and every copy of it
/// while a batch is planned) retains one reference, not the record's strings and claims.
final class JoinedChannel: Sendable {
    let record: ChannelRecord
    /// The bindings per table, each distinct binding once: matching reads a table's only.
    let bindingsByTable: [RealtimeTableName: [TableBinding]]
    /// Ended when the channel leaves the registry; kept across token refreshes.
    let liveness: ChannelLiveness

    init(_ record: ChannelRecord, liveness: ChannelLiveness = ChannelLiveness()) {
        self.record = record
        self.liveness = liveness
        var seen: Set<TableBinding> = []
        var byTable: [RealtimeTableName: [TableBinding]] = [:]
        for binding in record.bindings where seen.insert(binding).inserted {
            byTable[binding.table, default: []].append(binding)
        }
        self.bindingsByTable = byTable
    }
}

/// A channel that should receive a change, and the binding ids that matched.
struct ChannelMatch: Sendable {
    private let joined: JoinedChannel
    let ids: [Int]

    /// The channel, read in place.
    var channel: ChannelRecord {
        _read { yield joined.record }
    }

    /// Whether the channel is still joined with these bindings.
    var liveness: ChannelLiveness { joined.liveness }

    init(channel: ChannelRecord, ids: [Int]) {
        self.init(joined: JoinedChannel(channel), ids: ids)
    }

    init(joined: JoinedChannel, ids: [Int]) {
        self.joined = joined
        self.ids = ids
    }
}

/// A column as a filter reads it: its name and the type its values were typed as.
struct FilteredColumn: Hashable, Sendable {
    var name: String
    var kind: RealtimeValueKind
}

/// Every connected client and joined channel, indexed for fast matching.
///
/// Thread-safe (one lock); the fan-out matches a whole batch of changes under it. For each
/// table, channels whose binding has an `eq` filter on a hashable type are indexed by the
/// filter's value, so a change is matched against the channels that want its value, not
/// against every channel.
public final class SubscriptionRegistry: Sendable {
    private let state = Mutex(State())

    private struct ChannelKey: Hashable {
        var client: Int
        var topic: String
    }

    private struct ClientRecord {
        var outbox: ClientOutbox
        /// Where the client connects from, for the per-address binding quota; nil when not counted
        /// (loopback, or a trusted proxy that did not say for whom).
        var address: String?
        var topics: Set<String> = []
        var lastSeen: ContinuousClock.Instant
    }

    private struct TableIndex {
        /// Channels with a binding on the table that the equality index cannot serve.
        var scanned: [ChannelKey: Int] = [:]
        /// (column, type it was filtered as) → value → channels (with a count of bindings, for
        /// removal). Keyed by the binding's type too: a column whose type changed after some
        /// channels joined holds values typed both ways, and each is looked up its own way.
        var byValue: [FilteredColumn: [RealtimeFilterValue: [ChannelKey: Int]]] = [:]
        var isEmpty: Bool { scanned.isEmpty && byValue.isEmpty }

        /// Counts one of the channel's bindings in (`step` 1) or out (-1), dropping what empties.
        mutating func count(_ key: ChannelKey, for binding: TableBinding, step: Int) {
            guard let filter = binding.filter, let value = filter.equalityKey else {
                Self.count(key, in: &scanned, step: step)
                return
            }
            let column = FilteredColumn(name: filter.column, kind: filter.kind)
            Self.count(key, in: &byValue[column, default: [:]][value, default: [:]], step: step)
            if byValue[column]?[value]?.isEmpty == true {
                byValue[column]?[value] = nil
                byValue[column]?.shrinkIfSparse()
            }
            if byValue[column]?.isEmpty == true { byValue[column] = nil }
        }

        private static func count(_ key: ChannelKey, in channels: inout [ChannelKey: Int], step: Int) {
            channels[key, default: 0] += step
            guard channels[key] == 0 else { return }
            channels[key] = nil
            channels.shrinkIfSparse()
        }
    }

    private struct State {
        var nextClientID = 1
        var clients: [Int: ClientRecord] = [:]
        var channels: [ChannelKey: JoinedChannel] = [:]
        var tables: [RealtimeTableName: TableIndex] = [:]
        var bindingCount = 0
        /// Table bindings per counted client address (``ClientRecord/address``).
        var bindingsByAddress: [String: Int] = [:]
        var isShuttingDown = false
        /// Clients that left since the sweeper last asked (it trims the heap after a burst).
        var departuresSinceTrim = 0

        mutating func index(_ key: ChannelKey, _ bindings: [TableBinding], adding: Bool) {
            let step = adding ? 1 : -1
            bindingCount += adding ? bindings.count : -bindings.count
            if let address = clients[key.client]?.address {
                bindingsByAddress[address, default: 0] += adding ? bindings.count : -bindings.count
                if bindingsByAddress[address] == 0 {
                    bindingsByAddress[address] = nil
                    bindingsByAddress.shrinkIfSparse()
                }
            }
            for binding in bindings {
                // Mutated in place: a copy taken out and written back would copy the index's
                // maps on every join.
                tables[binding.table, default: TableIndex()].count(key, for: binding, step: step)
                if tables[binding.table]?.isEmpty == true { tables[binding.table] = nil }
            }
            if !adding { tables.shrinkIfSparse() }
        }

        @discardableResult
        mutating func removeChannel(_ key: ChannelKey) -> ChannelRecord? {
            guard let joined = channels.removeValue(forKey: key) else { return nil }
            joined.liveness.end()
            let record = joined.record
            channels.shrinkIfSparse()
            index(key, record.bindings, adding: false)
            clients[key.client]?.topics.remove(key.topic)
            return record
        }
    }

    /// Makes an empty registry.
    public init() {}

    // MARK: - Clients

    /// Registers a connection from `address` (nil: not counted per address); nil when the server
    /// is shutting down.
    public func addClient(
        version: RealtimeProtocolVersion, capacity: Int, maximumBytes: Int = .max, budget: ByteBudget? = nil,
        address: String? = nil
    ) -> ClientOutbox? {
        state.withLock { state in
            guard !state.isShuttingDown else { return nil }
            let id = state.nextClientID
            state.nextClientID += 1
            let outbox = ClientOutbox(clientID: id, version: version, capacity: capacity, maximumBytes: maximumBytes, budget: budget)
            state.clients[id] = ClientRecord(outbox: outbox, address: address, lastSeen: .now)
            return outbox
        }
    }

    /// Removes a connection and its channels; returns the channels it had.
    @discardableResult
    public func removeClient(_ clientID: Int) -> [ChannelRecord] {
        state.withLock { state in
            guard let client = state.clients[clientID] else { return [] }
            // Channels first: uncounting their bindings reads the client's address.
            let removed = client.topics.compactMap { state.removeChannel(ChannelKey(client: clientID, topic: $0)) }
            state.clients[clientID] = nil
            state.clients.shrinkIfSparse()
            state.departuresSinceTrim += 1
            return removed
        }
    }

    /// Notes that the client sent something (for the idle timeout).
    public func touch(_ clientID: Int) {
        state.withLock { $0.clients[clientID]?.lastSeen = .now }
    }

    /// Clients silent since before `deadline`.
    public func clients(silentSince deadline: ContinuousClock.Instant) -> [ClientOutbox] {
        state.withLock { state in state.clients.values.filter { $0.lastSeen < deadline }.map(\.outbox) }
    }

    /// Stops accepting clients and returns every current one.
    public func beginShutdown() -> [ClientOutbox] {
        state.withLock { state in
            state.isShuttingDown = true
            return state.clients.values.map(\.outbox)
        }
    }

    // MARK: - Channels

    /// Joins (or re-joins) a channel and queues `frames` on the client under the same lock,
    /// so no change for the new subscription can overtake its join reply. Refused, with nothing
    /// changed or queued, when its bindings would pass `limits`: checked under the lock, so joins
    /// arriving together cannot pass a limit between them.
    @discardableResult
    public func join(_ record: ChannelRecord, queueing frames: [RealtimeMessage], limits: BindingLimits = .none) -> JoinOutcome {
        state.withLock { state in
            let key = ChannelKey(client: record.outbox.clientID, topic: record.topic)
            guard let client = state.clients[key.client] else {
                state.removeChannel(key)
                return .clientLeft
            }
            let replaced = state.channels[key]?.record.bindings.count ?? 0
            let held = client.address.map { state.bindingsByAddress[$0, default: 0] }
            if let limit = limits.exceeded(adding: record.bindings.count - replaced, total: state.bindingCount, address: held) {
                return .refused(limit)
            }
            let previous = state.removeChannel(key)
            state.channels[key] = JoinedChannel(record)
            state.clients[key.client]?.topics.insert(record.topic)
            state.index(key, record.bindings, adding: true)
            for frame in frames { record.outbox.enqueue(frame) }
            return .joined(replacing: previous)
        }
    }

    /// Leaves a channel; returns it.
    public func leave(clientID: Int, topic: String) -> ChannelRecord? {
        state.withLock { $0.removeChannel(ChannelKey(client: clientID, topic: topic)) }
    }

    /// The joined channel, if any.
    public func channel(clientID: Int, topic: String) -> ChannelRecord? {
        state.withLock { $0.channels[ChannelKey(client: clientID, topic: topic)]?.record }
    }

    /// How many channels the client has joined.
    public func channelCount(clientID: Int) -> Int {
        state.withLock { $0.clients[clientID]?.topics.count ?? 0 }
    }

    /// Replaces a channel's claims (token refresh); false if not joined.
    @discardableResult
    public func updateClaims(clientID: Int, topic: String, claims: AccessClaims) -> Bool {
        state.withLock { state in
            let key = ChannelKey(client: clientID, topic: topic)
            guard let joined = state.channels[key] else { return false }
            var record = joined.record
            record.claims = claims
            state.channels[key] = JoinedChannel(record, liveness: joined.liveness)
            return true
        }
    }

    /// Removes and returns the channels whose token has expired by `date` (realtime accepts
    /// only tokens with `exp`, ``ExpiryRule/required``; one without would never expire here).
    public func removeChannels(expiredBy date: Date) -> [ChannelRecord] {
        state.withLock { state in
            let expired = state.channels.filter { $0.value.record.claims.expiresAt.map { $0 <= date } ?? false }.map(\.key)
            return expired.compactMap { state.removeChannel($0) }
        }
    }

    /// How many clients left since the last call (the sweeper trims the heap after a burst).
    public func takeDepartures() -> Int {
        state.withLock { state in
            defer { state.departuresSinceTrim = 0 }
            return state.departuresSinceTrim
        }
    }

    /// The slots the client, channel and table maps hold (tests check they shrink after a burst).
    var storageCapacity: (clients: Int, channels: Int, tables: Int) {
        state.withLock { ($0.clients.capacity, $0.channels.capacity, $0.tables.capacity) }
    }

    /// Counts for metrics: clients, channels, bindings.
    public var counts: (clients: Int, channels: Int, bindings: Int) {
        state.withLock { ($0.clients.count, $0.channels.count, $0.bindingCount) }
    }

    /// The table bindings channels joined from `address` hold.
    func bindingCount(address: String) -> Int {
        state.withLock { $0.bindingsByAddress[address, default: 0] }
    }

    // MARK: - Matching

    /// The tables some joined channel watches now.
    var watchedTables: Set<RealtimeTableName> {
        state.withLock { Set($0.tables.keys) }
    }

    /// For each change, the channels with a binding that may want it: every channel watching
    /// its table, except those whose only bindings there are `eq` filters on other values.
    ///
    /// Only this lookup holds the lock. Evaluating the bindings (``match(_:)``) can take long
    /// (thousands of channels, each with a hundred filters), and everything that touches the
    /// registry (every inbound frame, every join) would wait on it.
    func candidates(for changes: [ParsedChange]) -> [[JoinedChannel]] {
        state.withLock { state in
            changes.map { parsed in
                guard let index = state.tables[parsed.table.name] else { return [] }
                var keys = Array(index.scanned.keys)
                var sources = keys.isEmpty ? 0 : 1
                for (column, values) in index.byValue {
                    guard let json = parsed.filterValue(column.name),
                        let value = RealtimeFilterValue(json: json, kind: column.kind),
                        let channels = values[value]
                    else { continue }
                    keys.append(contentsOf: channels.keys)
                    sources += 1
                }
                // A channel can be in several of the lists; one list has each channel once.
                if sources > 1 { keys = Array(Set(keys)) }
                return keys.compactMap { state.channels[$0] }
            }
        }
    }
}
