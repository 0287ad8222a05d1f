import CompassData
import Foundation
import Postgres

/// How a feed is fetched: the same `FeedRepository.load()`, the same PostgREST-style user
/// scope, different round trips.
///
/// `pipelined` is how the apps' scopes send: the three source queries as three pipeline
/// segments (each its own scoped transaction) in one round trip, then the hydration query.
/// `oneQueryAtATime` sends each scoped query in its own round trip. `unpipelined` is a
/// client without pipeline mode: `BEGIN`, the scope, the query and `COMMIT` each wait for
/// their answer.
enum FeedStrategy: String, CaseIterable {
    case pipelined
    case oneQueryAtATime = "one query at a time"
    case unpipelined = "no pipeline (BEGIN/scope/query/COMMIT)"

    /// The scope's way of sending that this strategy times.
    var sending: DatabaseScope.Sending {
        switch self {
        case .pipelined: return .pipelined
        case .oneQueryAtATime: return .segmentBySegment
        case .unpipelined: return .statementByStatement
        }
    }

    /// Loads and merges one user's feed; returns the number of events.
    func load(_ user: UUID, on connection: PostgresConnection) async throws -> Int {
        try await FeedRepository(scope: .user(user, on: connection, sending: sending)).load().events.count
    }
}
