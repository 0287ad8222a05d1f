import Foundation

/// One row of the feed's documents query.
///
/// `SELECT id, title, type, created_at FROM documents WHERE user_id = $1 …`
public struct FeedDocumentRow: Sendable, Hashable {
    /// `documents.id`.
    public var id: UUID
    /// `documents.title`.
    public var title: String
    /// `documents.type` (`transcript`, `highlight_video`, …).
    public var type: String?
    /// `documents.created_at`.
    public var createdAt: Date

    /// Creates a row from the query's columns.
    public init(id: UUID, title: String, type: String?, createdAt: Date) {
        self.id = id
        self.title = title
        self.type = type
        self.createdAt = createdAt
    }
}
