import Foundation

/// Turns notifications into list rows: likes on the same post share a row; comments and follows never group.
///
/// ```swift
/// let rows = ActivityGrouping.group(fetched)       // newest row first
/// let badge = Activity.unreadCount(fetched)
/// ```
public enum ActivityGrouping {
    /// The rows for `activities`, ordered by each row's newest notification (ties by descending id).
    ///
    /// A like without a post id stays on its own.
    public static func group(_ activities: [Activity]) -> [GroupedActivityItem] {
        var buckets: [[Activity]] = []
        var likeBucketByPost: [UUID: Int] = [:]
        for activity in activities.sorted(by: { $0.precedes($1) }) {
            if activity.activityType == .like, let postId = activity.postId {
                if let index = likeBucketByPost[postId] {
                    buckets[index].append(activity)
                } else {
                    likeBucketByPost[postId] = buckets.count
                    buckets.append([activity])
                }
            } else {
                buckets.append([activity])
            }
        }
        return buckets.map(GroupedActivityItem.init(activities:))
    }

    /// `activities` with every id in `ids` marked read (one row, a whole group, or a list).
    public static func markingRead(_ ids: some Sequence<UUID>, in activities: [Activity]) -> [Activity] {
        let ids = Set(ids)
        return activities.map { activity in
            var copy = activity
            if ids.contains(activity.id) { copy.isRead = true }
            return copy
        }
    }
}
