import Logging
import Postgres

/// Deletes stored changes older than the retention, in small batches, so the table stays small.
struct ChangePruner: Sendable {
    let database: RealtimeDatabase
    let retention: Duration
    let interval: Duration
    /// Rows per DELETE: short transactions that never hold locks for long.
    var batchSize = 5000
    let logger: Logger

    /// Prunes every `interval` until cancelled; a failed round is logged and retried next time.
    func run() async {
        while !Task.isCancelled {
            do {
                let removed = try await pruneOnce()
                if removed > 0 { logger.debug("pruned stored changes", metadata: ["realtime.pruned": "\(removed)"]) }
            } catch is CancellationError {
                return
            } catch {
                logger.warning("pruning realtime.changes failed", metadata: ["realtime.error": "\(error)"])
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// One pruning pass; returns how many rows went.
    func pruneOnce() async throws -> Int {
        let seconds = Double(retention.components.seconds) + Double(retention.components.attoseconds) / 1e18
        var total = 0
        while !Task.isCancelled {
            let result = try await database.asServiceRole([
                """
                DELETE FROM realtime.changes
                 WHERE id IN (SELECT id FROM realtime.changes
                               WHERE created_at < now() - make_interval(secs => \(seconds))
                               ORDER BY id
                               LIMIT \(batchSize))
                """
            ])[0]
            let removed = result.affectedRows ?? 0
            total += removed
            if removed < batchSize { break }
        }
        return total
    }
}
