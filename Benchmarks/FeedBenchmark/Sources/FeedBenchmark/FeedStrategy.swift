import CompassData
import CompassDomain
import Foundation
import Postgres

/// How a feed is fetched: the same DESIGN §3 statements, the same PostgREST-style user
/// scope, different round trips.
///
/// `pipelined` is `FeedRepository.load()` itself: the three source queries as three
/// pipeline segments (each its own scoped transaction) in one round trip, then the
/// hydration query. `oneQueryAtATime` sends each scoped query in its own round trip.
/// `unpipelined` is a client without pipeline mode: `BEGIN`, the scope, the query and
/// `COMMIT` each wait for their answer.
enum FeedStrategy: String, CaseIterable {
    case pipelined
    case oneQueryAtATime = "one query at a time"
    case unpipelined = "no pipeline (BEGIN/scope/query/COMMIT)"

    /// Loads and merges one user's feed; returns the number of events.
    func load(_ user: UUID, on connection: PostgresConnection) async throws -> Int {
        let scope = DatabaseScope.user(user, on: connection)
        let repository = FeedRepository(scope: scope)
        if self == .pipelined { return try await repository.load().events.count }

        var results: [PostgresResult] = []
        for query in FeedRepository.sourceQueries(userId: user) {
            results.append(try await run(query, in: scope, on: connection))
        }
        let interactions = try results[0].map(FeedRepository.interactionRow)
        let statusChanges = try results[1].map(FeedRepository.statusChangeRow)
        let documents = try results[2].map(FeedRepository.documentRow)
        var names: [UUID: String] = [:]
        let ids = ActivityFeed.schoolIdsToHydrate(interactions: interactions, statusChanges: statusChanges)
        if !ids.isEmpty {
            for row in try await run(FeedRepository.schoolNamesQuery(ids: ids), in: scope, on: connection) {
                let (id, name) = try row.decode((UUID, String).self)
                names[id] = name
            }
        }
        return ActivityFeed.merge(
            interactions: interactions, statusChanges: statusChanges, documents: documents, schoolNames: names, now: Date()
        ).count
    }

    /// One scoped statement: scope and query in one round trip, or four without a pipeline.
    private func run(_ query: PostgresQuery, in scope: DatabaseScope, on connection: PostgresConnection) async throws
        -> PostgresResult
    {
        guard self == .unpipelined else { return try await scope.query(query) }
        return try await connection.withTransaction { transaction in
            try await transaction.query(scope.scopeStatement)
            return try await transaction.query(query)
        }
    }
}
