import CompassData
import CompassDomain
import Foundation
import Postgres

/// The feed's own CPU work without the database: merging each user's decoded rows into events.
///
/// Printed beside the feed's p50, so a change to event building shows up even when the round
/// trips' noise hides it in the feed's ratio to the floor.
enum EventBuildingTiming {
    /// The p50 of `ActivityFeed.merge` over `users`' rows, each merged `iterations` times (after one warm-up).
    static func p50(users: [FeedUser], on connection: PostgresConnection, iterations: Int) async throws -> Duration {
        let clock = ContinuousClock()
        let now = Date()
        var samples: [Duration] = []
        for user in users {
            let rows = try await FeedRepository(scope: .user(user.id, on: connection)).loadRows()
            for round in 0...iterations {
                let start = clock.now
                // Counted and dropped inside the timing: freeing the events is part of the feed's cost.
                let count = ActivityFeed.merge(
                    interactions: rows.interactions, statusChanges: rows.statusChanges, documents: rows.documents,
                    schoolNames: rows.schoolNames, now: now
                ).count
                let elapsed = clock.now - start
                precondition(count > 0, "a benchmark user's feed is empty")
                if round > 0 { samples.append(elapsed) }
            }
        }
        return FeedBenchmark.percentile(samples.sorted(), 0.50)
    }
}
