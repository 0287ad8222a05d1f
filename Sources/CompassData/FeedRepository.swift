import CompassDomain
import Foundation
import Postgres

/// The Activity Feed (seed 000): three queries in one round trip, then one hydration query.
///
/// ```swift
/// let feed = try await FeedRepository(scope: .user(sofia, on: connection)).load()
/// feed.events.first?.title   // "Email with Stanford University"
/// ```
/// A failing source empties only itself (see ``loadSourceRows()``): the feed comes back
/// with the other sources' events and a warning naming the failed one.
public struct FeedRepository: Sendable {
    /// The user scope the queries run in.
    public let scope: DatabaseScope

    /// A repository reading as `scope`'s user.
    public init(scope: DatabaseScope) {
        self.scope = scope
    }

    /// `SELECT id, school_id, type, content, subject, occurred_at, created_at FROM interactions WHERE logged_by = $1 ORDER BY created_at DESC LIMIT 50`
    static func interactionsQuery(userId: UUID) -> PostgresQuery {
        "SELECT id, school_id, type, content, subject, occurred_at, created_at FROM interactions WHERE logged_by = \(userId) ORDER BY created_at DESC LIMIT 50"
    }

    /// `SELECT id, school_id, new_status, notes, changed_at FROM school_status_history WHERE changed_by = $1 ORDER BY changed_at DESC LIMIT 50`
    static func statusChangesQuery(userId: UUID) -> PostgresQuery {
        "SELECT id, school_id, new_status, notes, changed_at FROM school_status_history WHERE changed_by = \(userId) ORDER BY changed_at DESC LIMIT 50"
    }

    /// `SELECT id, title, type, created_at FROM documents WHERE user_id = $1 ORDER BY created_at DESC LIMIT 50`
    static func documentsQuery(userId: UUID) -> PostgresQuery {
        "SELECT id, title, type, created_at FROM documents WHERE user_id = \(userId) ORDER BY created_at DESC LIMIT 50"
    }

    /// `SELECT id, name FROM schools WHERE id = ANY($1)`
    static func schoolNamesQuery(ids: [UUID]) -> PostgresQuery {
        "SELECT id, name FROM schools WHERE id = ANY(\(ids))"
    }

    /// The three source queries for `userId`, in `ActivityFeedSource.allCases` order.
    static func sourceQueries(userId: UUID) -> [PostgresQuery] {
        [interactionsQuery(userId: userId), statusChangesQuery(userId: userId), documentsQuery(userId: userId)]
    }

    /// Loads the scope user's whole feed (up to 50 rows per source), merged newest first.
    ///
    /// Round trip 1 sends the three queries in one pipeline segment; round trip 2
    /// looks up the distinct non-null school ids (skipped when there are none). When
    /// every source fails, the first failure is thrown.
    public func load(now: Date = Date()) async throws -> ActivityFeedSnapshot {
        let sources = try await loadSourceRows()
        // The events are built while round trip 2 (their schools' names) travels, and named when it is back.
        let (names, unnamed) = try await schoolNames(sources.schoolIdsToHydrate) {
            ActivityFeed.unnamedEvents(
                interactions: sources.interactions, statusChanges: sources.statusChanges, documents: sources.documents, now: now)
        }
        return ActivityFeedSnapshot(events: unnamed.naming(names), failures: sources.failures)
    }

    /// The three sources' rows and their school names, before they become events.
    public struct Rows: Sendable {
        public var interactions: [FeedInteractionRow]
        public var statusChanges: [FeedStatusChangeRow]
        public var documents: [FeedDocumentRow]
        public var schoolNames: [UUID: String]
        public var failures: [ActivityFeedSource: PostgresError]
    }

    /// Both round trips of ``load(now:)``, without merging (FeedBenchmark times the merge alone on them).
    public func loadRows() async throws -> Rows {
        let sources = try await loadSourceRows()
        let names = try await schoolNames(sources.schoolIdsToHydrate)
        return Rows(
            interactions: sources.interactions, statusChanges: sources.statusChanges, documents: sources.documents,
            schoolNames: names, failures: sources.failures)
    }

    /// The three sources' rows, before their schools are looked up.
    struct SourceRows: Sendable {
        var interactions: [FeedInteractionRow]
        var statusChanges: [FeedStatusChangeRow]
        var documents: [FeedDocumentRow]
        var failures: [ActivityFeedSource: PostgresError]

        /// What round trip 2 looks up.
        var schoolIdsToHydrate: [UUID] {
            ActivityFeed.schoolIdsToHydrate(interactions: interactions, statusChanges: statusChanges)
        }
    }

    /// Round trip 1: the three source queries; a failed source is empty and named in `failures`
    /// (when all three fail, the first failure is thrown).
    ///
    /// They go as one segment: one scope statement and one sync for the three, so Postgres
    /// answers them in one go (three segments cost two more statements, two more flushes and the
    /// client's wake-ups for each). They only read, so sharing a transaction changes nothing but
    /// this: a failure skips the sources after it, and those are asked again, each in a segment
    /// of its own, so one source's failure empties that source alone.
    func loadSourceRows() async throws -> SourceRows {
        let userId = try scope.requireUser(for: "the activity feed")
        let queries = Self.sourceQueries(userId: userId)
        // The ways benchmarks compare without a pipeline send each source as its own transaction.
        let segments = scope.sending == .pipelined ? [queries] : queries.map { [$0] }
        var results = try await scope.run(segments: segments).flatMap { $0 }
        let skipped = results.indices.filter { index in
            if case .failure(let error) = results[index] { error.code == .pipelineAborted } else { false }
        }
        if !skipped.isEmpty {
            let again = try await scope.run(segments: skipped.map { [queries[$0]] })
            for (index, segment) in zip(skipped, again) { results[index] = segment[0] }
        }
        var sources = SourceRows(interactions: [], statusChanges: [], documents: [], failures: [:])
        for (source, result) in zip(ActivityFeedSource.allCases, results) {
            switch result {
            case .failure(let error): sources.failures[source] = error
            case .success(let rows):
                switch source {
                case .interactions: sources.interactions = try rows.map(Self.interactionRow)
                case .statusChanges: sources.statusChanges = try rows.map(Self.statusChangeRow)
                case .documents: sources.documents = try rows.map(Self.documentRow)
                }
            }
        }
        if sources.failures.count == ActivityFeedSource.allCases.count, let first = sources.failures[.interactions] {
            throw first
        }
        return sources
    }

    /// Looks up school names in one query; no query at all for no ids.
    public func schoolNames(_ ids: [UUID]) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        return try Self.names(in: try await scope.query(Self.schoolNamesQuery(ids: ids)))
    }

    /// ``schoolNames(_:)``, running `work` while the query is on the way (at once for no ids).
    func schoolNames<Work: Sendable>(
        _ ids: [UUID], whileWaiting work: @Sendable () -> Work
    ) async throws -> (names: [UUID: String], work: Work) {
        guard !ids.isEmpty else { return ([:], work()) }
        let (result, done) = try await scope.query(Self.schoolNamesQuery(ids: ids), whileWaiting: work)
        return (try Self.names(in: result), done)
    }

    /// The hydration query's rows as a lookup.
    private static func names(in result: PostgresResult) throws -> [UUID: String] {
        var names: [UUID: String] = [:]
        for row in result {
            names[try row.decode(UUID.self, at: 0)] = try row.decode(String.self, at: 1)
        }
        return names
    }

    // Column by column rather than as one tuple: the compiler specializes each typed call, while a
    // tuple's parameter pack decodes every value through generic dispatch (150 rows a feed).
    static func interactionRow(_ row: PostgresRow) throws -> FeedInteractionRow {
        FeedInteractionRow(
            id: try row.decode(UUID.self, at: 0), schoolId: try row.decode(UUID?.self, at: 1),
            type: try row.decode(String.self, at: 2), content: try row.decode(String?.self, at: 3),
            subject: try row.decode(String?.self, at: 4), occurredAt: try row.decode(Date?.self, at: 5),
            createdAt: try row.decode(Date.self, at: 6))
    }

    static func statusChangeRow(_ row: PostgresRow) throws -> FeedStatusChangeRow {
        FeedStatusChangeRow(
            id: try row.decode(UUID.self, at: 0), schoolId: try row.decode(UUID?.self, at: 1),
            newStatus: try row.decode(String.self, at: 2), notes: try row.decode(String?.self, at: 3),
            changedAt: try row.decode(Date.self, at: 4))
    }

    static func documentRow(_ row: PostgresRow) throws -> FeedDocumentRow {
        FeedDocumentRow(
            id: try row.decode(UUID.self, at: 0), title: try row.decode(String.self, at: 1),
            type: try row.decode(String?.self, at: 2), createdAt: try row.decode(Date.self, at: 3))
    }
}

/// The merged feed plus the sources that failed to load.
public struct ActivityFeedSnapshot: Sendable {
    /// Every loaded event, newest first.
    public var events: [ActivityEvent]
    /// The error of each source that failed (empty when all loaded).
    public var failures: [ActivityFeedSource: PostgresError]

    /// Creates a snapshot.
    public init(events: [ActivityEvent], failures: [ActivityFeedSource: PostgresError] = [:]) {
        self.events = events
        self.failures = failures
    }

    /// The failed sources, in feed order.
    public var failedSources: [ActivityFeedSource] {
        ActivityFeedSource.allCases.filter { failures[$0] != nil }
    }

    /// One banner text per failed source.
    public var warnings: [String] {
        failedSources.map(\.warning)
    }
}
