import Foundation
import Postgres

extension InteractionsRepository {
    /// `DELETE FROM interactions WHERE id = $1`: RLS (`interactions_delete_owner`) decides whether the row goes.
    static func deleteQuery(id: UUID) -> PostgresQuery {
        "DELETE FROM interactions WHERE id = \(id)"
    }

    /// `SELECT count(*) FROM interactions WHERE id = $1`: after the delete, whether the row is still visible.
    static func visibleQuery(id: UUID) -> PostgresQuery {
        "SELECT count(*) FROM interactions WHERE id = \(id)"
    }

    /// Deletes one interaction and what hangs off it, as the scope's user (seed 004's cascade-delete).
    ///
    /// The delete and a visibility check run in one transaction and one round trip. Only the
    /// user who logged an interaction may delete it (RLS). A row the user cannot see, or that
    /// does not exist, is ``DataAccessError/notFound(entity:id:)`` (another family's rows are
    /// never confirmed to exist); a row they can see but may not delete (a parent and their
    /// athlete's interaction) is ``DataAccessError/notAllowed(entity:id:)``.
    public func cascadeDelete(_ id: UUID) async throws -> InteractionDeletion {
        _ = try scope.requireUser(for: "deleting an interaction")
        let results = try await scope.run([Self.deleteQuery(id: id), Self.visibleQuery(id: id)])
        let deleted = results[0].affectedRows ?? 0
        if deleted > 0 { return InteractionDeletion(interactions: deleted) }
        if try results[1][0].decode(Int.self, at: 0) > 0 {
            throw DataAccessError.notAllowed(entity: "interaction", id: id)
        }
        throw DataAccessError.notFound(entity: "interaction", id: id)
    }
}

/// Rows a cascade delete removed, per table: `{"interactions": 1}`.
///
/// Nothing references `interactions` yet, so only the interaction itself goes; a table that
/// comes to hang off it (with `ON DELETE CASCADE`) gets its count here.
public struct InteractionDeletion: Sendable, Hashable, Codable {
    /// Interactions deleted.
    public var interactions: Int

    /// Creates a count.
    public init(interactions: Int) {
        self.interactions = interactions
    }
}
