import CompassDomain
import Foundation
import Postgres

/// How a feed is fetched: the same DESIGN §3 queries, the same PostgREST-style user scope, different round trips.
///
/// `pipelined` is what `FeedRepository.load()` does: the three source queries as three
/// pipeline segments (each its own scoped transaction) in one round trip, then the
/// hydration query. `oneQueryAtATime` sends each scoped query in its own round trip.
/// `unpipelined` is a client without pipeline mode: `BEGIN`, the scope, the query and
/// `COMMIT` each wait for their answer.
enum FeedStrategy: String, CaseIterable {
    case pipelined
    case oneQueryAtATime = "one query at a time"
    case unpipelined = "no pipeline (BEGIN/scope/query/COMMIT)"

    static func scope(_ user: UUID) -> PostgresQuery {
        let claims = #"{"sub":"\#(user.uuidString.lowercased())","role":"authenticated"}"#
        return "SELECT set_config('role', 'authenticated', true), set_config('request.jwt.claims', \(claims), true)"
    }

    static func sources(_ user: UUID) -> [PostgresQuery] {
        [
            "SELECT id, school_id, type, content, subject, occurred_at, created_at FROM interactions WHERE logged_by = \(user) ORDER BY created_at DESC LIMIT 50",
            "SELECT id, school_id, new_status, notes, changed_at FROM school_status_history WHERE changed_by = \(user) ORDER BY changed_at DESC LIMIT 50",
            "SELECT id, title, type, created_at FROM documents WHERE user_id = \(user) ORDER BY created_at DESC LIMIT 50",
        ]
    }

    static func hydration(_ ids: [UUID]) -> PostgresQuery {
        "SELECT id, name FROM schools WHERE id = ANY(\(ids))"
    }

    /// Loads and merges one user's feed; returns the number of events.
    func load(_ user: UUID, on connection: PostgresConnection) async throws -> Int {
        let scope = Self.scope(user)
        let sources = Self.sources(user)
        let results: [PostgresResult]
        switch self {
        case .pipelined:
            results = try await connection.pipeline(segments: sources.map { [scope, $0] }).map { try $0[1].get() }
        case .oneQueryAtATime:
            var collected: [PostgresResult] = []
            for query in sources { collected.append(try await connection.pipeline([scope, query])[1].get()) }
            results = collected
        case .unpipelined:
            var collected: [PostgresResult] = []
            for query in sources { collected.append(try await Self.unpipelined(query, scope: scope, on: connection)) }
            results = collected
        }
        let interactions = try results[0].map { row in
            let (id, school, type, content, subject, occurred, created) =
                try row.decode((UUID, UUID?, String, String?, String?, Date?, Date).self)
            return FeedInteractionRow(
                id: id, schoolId: school, type: type, content: content, subject: subject, occurredAt: occurred, createdAt: created)
        }
        let statusChanges = try results[1].map { row in
            let (id, school, status, notes, changed) = try row.decode((UUID, UUID?, String, String?, Date).self)
            return FeedStatusChangeRow(id: id, schoolId: school, newStatus: status, notes: notes, changedAt: changed)
        }
        let documents = try results[2].map { row in
            let (id, title, type, created) = try row.decode((UUID, String, String?, Date).self)
            return FeedDocumentRow(id: id, title: title, type: type, createdAt: created)
        }
        var names: [UUID: String] = [:]
        let ids = ActivityFeed.schoolIdsToHydrate(interactions: interactions, statusChanges: statusChanges)
        if !ids.isEmpty {
            let hydration = self == .unpipelined
                ? try await Self.unpipelined(Self.hydration(ids), scope: scope, on: connection)
                : try await connection.pipeline([scope, Self.hydration(ids)])[1].get()
            for row in hydration {
                let (id, name) = try row.decode((UUID, String).self)
                names[id] = name
            }
        }
        return ActivityFeed.merge(
            interactions: interactions, statusChanges: statusChanges, documents: documents, schoolNames: names, now: Date()
        ).count
    }

    private static func unpipelined(
        _ query: PostgresQuery, scope: PostgresQuery, on connection: PostgresConnection
    ) async throws -> PostgresResult {
        try await connection.withTransaction { transaction in
            try await transaction.query(scope)
            return try await transaction.query(query)
        }
    }
}
