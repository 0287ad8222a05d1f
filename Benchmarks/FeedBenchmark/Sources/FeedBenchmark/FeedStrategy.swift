import CompassData
import Foundation
import Postgres

/// How a feed is fetched.
///
/// The first four time the same `FeedRepository.load()` under the same PostgREST-style user
/// scope with different round trips: `pipelined` is how the apps' scopes send (the three
/// source queries as three pipeline segments, each its own scoped transaction, in one round
/// trip, then the hydration query); `oneQueryAtATime` sends each scoped query in its own round
/// trip; `unpipelined` is a client without pipeline mode (`BEGIN`, the scope, the query and
/// `COMMIT` each wait for their answer). `rowsOnly` is `pipelined` without building the events
/// (``FeedRepository/loadRows()``): between it and the floor lie the decoding and the scope's own
/// work, between it and `pipelined` the event building.
///
/// The last two send the very statements `pipelined` sent for the user (recorded, binds
/// included) without building the feed: `libpqFloor` through the project's own client,
/// prepared and pipelined, rows copied but not decoded — what the feed costs at best on this
/// client; `postgresNIO` through PostgresNIO, three scoped transactions at once, rows read but
/// not decoded — the peer at its best.
enum FeedStrategy: String, CaseIterable {
    case pipelined
    case rowsOnly = "pipelined, rows decoded, no events built"
    case oneQueryAtATime = "one query at a time"
    case unpipelined = "no pipeline (BEGIN/scope/query/COMMIT)"
    case libpqFloor = "libpq floor (same statements, not decoded)"
    case postgresNIO = "PostgresNIO, same scope (not decoded)"

    /// Loads one user's feed (or sends its statements); returns the events (or rows) it got.
    func load(_ user: FeedUser, on connection: PostgresConnection, peer: PostgresNIOPeer) async throws -> Int {
        switch self {
        case .pipelined, .oneQueryAtATime, .unpipelined:
            return try await FeedRepository(scope: .user(user.id, on: connection, sending: sending)).load().events.count
        case .rowsOnly:
            let rows = try await FeedRepository(scope: .user(user.id, on: connection)).loadRows()
            return rows.interactions.count + rows.statusChanges.count + rows.documents.count
        case .libpqFloor:
            var rows = 0
            for roundTrip in user.work {
                for segment in try await connection.pipeline(segments: roundTrip) {
                    for result in segment { rows += try result.get().count }
                }
            }
            return rows
        case .postgresNIO:
            var rows = 0
            for roundTrip in user.work {
                rows += try await peer.run(segments: roundTrip.map { $0.map { ($0.sql, $0.binds) } })
            }
            return rows
        }
    }

    /// The scope's way of sending that this strategy times.
    private var sending: DatabaseScope.Sending {
        switch self {
        case .oneQueryAtATime: return .segmentBySegment
        case .unpipelined: return .statementByStatement
        default: return .pipelined
        }
    }
}

/// A benchmark user and the round trips their feed sends (recorded from a real load).
struct FeedUser {
    var id: UUID
    var work: [[[PostgresQuery]]]

    /// Loads `id`'s feed once, recording exactly what it sent.
    static func recording(_ id: UUID, on connection: PostgresConnection) async throws -> FeedUser {
        let recorder = QueryRecorder(keepingWork: true)
        _ = try await FeedRepository(scope: .user(id, on: connection, recorder: recorder)).load()
        return FeedUser(id: id, work: recorder.sentRoundTrips)
    }
}
