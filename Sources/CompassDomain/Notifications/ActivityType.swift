/// What a social notification is about (`activities.activity_type`).
public enum ActivityType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Someone liked the recipient's post.
    case like
    /// Someone commented on the recipient's post.
    case comment
    /// Someone followed the recipient.
    case follow
}
