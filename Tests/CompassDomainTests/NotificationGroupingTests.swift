import Foundation
import Testing
@testable import CompassDomain

@Suite("Notifications: grouping, texts, unread state")
struct NotificationGroupingTests {
    let recipient = Fixture.uuid(1)
    let post = Fixture.uuid(500)
    let otherPost = Fixture.uuid(501)

    func profile(_ n: Int, _ name: String) -> Profile {
        Profile(userId: Fixture.uuid(n), username: name)
    }

    func like(_ id: Int, by actor: Int, _ name: String, post: UUID?, minutesAgo: Double, read: Bool = false) -> Activity {
        Activity(id: Fixture.uuid(id), userId: recipient, actorId: Fixture.uuid(actor), activityType: .like,
                 postId: post, isRead: read, createdAt: Fixture.ago(minutesAgo * 60), actorProfile: profile(actor, name))
    }

    func comment(_ id: Int, by actor: Int, _ name: String, body: String?, minutesAgo: Double) -> Activity {
        Activity(id: Fixture.uuid(id), userId: recipient, actorId: Fixture.uuid(actor), activityType: .comment,
                 postId: post, commentId: Fixture.uuid(id + 1_000), createdAt: Fixture.ago(minutesAgo * 60),
                 actorProfile: profile(actor, name), commentBody: body, postCaption: "Sunset")
    }

    func follow(_ id: Int, by actor: Int, _ name: String, minutesAgo: Double) -> Activity {
        Activity(id: Fixture.uuid(id), userId: recipient, actorId: Fixture.uuid(actor), activityType: .follow,
                 createdAt: Fixture.ago(minutesAgo * 60), actorProfile: profile(actor, name))
    }

    @Test("one like reads 'a liked your photo.'")
    func oneLiker() throws {
        let rows = ActivityGrouping.group([like(10, by: 2, "alice", post: post, minutesAgo: 1)])
        try #require(rows.count == 1)
        #expect(rows[0].text == "alice liked your photo.")
        #expect(!rows[0].isGrouped)
    }

    @Test("two likes on one post read 'a and b liked your photo.', newest actor first")
    func twoLikers() throws {
        let rows = ActivityGrouping.group([
            like(10, by: 2, "alice", post: post, minutesAgo: 5),
            like(11, by: 3, "bob", post: post, minutesAgo: 1),
        ])
        try #require(rows.count == 1)
        #expect(rows[0].text == "bob and alice liked your photo.")
        #expect(rows[0].isGrouped)
        #expect(rows[0].id == Fixture.uuid(11))
        #expect(rows[0].primaryActor?.username == "bob")
        #expect(rows[0].actors.map(\.username) == ["bob", "alice"])
    }

    @Test("three or more likes read 'a and N others liked your photo.'", arguments: [3, 4, 12])
    func manyLikers(count: Int) throws {
        let likes = (0..<count).map { like(10 + $0, by: 100 + $0, "user\($0)", post: post, minutesAgo: Double($0)) }
        let rows = ActivityGrouping.group(likes)
        try #require(rows.count == 1)
        #expect(rows[0].text == "user0 and \(count - 1) others liked your photo.")
        #expect(rows[0].activities.count == count)
    }

    @Test("likes on different posts stay in different rows")
    func likesOnDifferentPosts() throws {
        let rows = ActivityGrouping.group([
            like(10, by: 2, "alice", post: post, minutesAgo: 5),
            like(11, by: 3, "bob", post: otherPost, minutesAgo: 1),
            like(12, by: 4, "carol", post: post, minutesAgo: 3),
        ])
        #expect(rows.map(\.text) == ["bob liked your photo.", "carol and alice liked your photo."])
        try #require(rows.count == 2)
        #expect(rows[1].activityIds == [Fixture.uuid(12), Fixture.uuid(10)])
    }

    @Test("comments never group, even on the same post, and show their body")
    func commentsNeverGroup() throws {
        let rows = ActivityGrouping.group([
            comment(20, by: 2, "alice", body: "Great photo! 🔥", minutesAgo: 2),
            comment(22, by: 2, "alice", body: "Really, great.", minutesAgo: 1),
        ])
        try #require(rows.count == 2)
        #expect(rows.map(\.text) == ["alice commented: Really, great.", "alice commented: Great photo! 🔥"])
        #expect(rows.allSatisfy { !$0.isGrouped })
        #expect(rows[0].commentId == Fixture.uuid(1_022))
        #expect(rows[0].activities[0].postCaption == "Sunset")
    }

    @Test("a comment without its body reads 'commented: ...', and a long body is kept whole")
    func commentBodies() throws {
        let long = String(repeating: "so good ", count: 40)
        let rows = ActivityGrouping.group([
            comment(20, by: 2, "alice", body: nil, minutesAgo: 2),
            comment(21, by: 3, "bob", body: long, minutesAgo: 1),
        ])
        try #require(rows.count == 2)
        #expect(rows[1].text == "alice commented: ...")
        #expect(rows[0].text == "bob commented: \(long)")
    }

    @Test("follows never group")
    func followsNeverGroup() {
        let rows = ActivityGrouping.group([
            follow(30, by: 2, "alice", minutesAgo: 2),
            follow(31, by: 3, "bob", minutesAgo: 1),
        ])
        #expect(rows.map(\.text) == ["bob started following you.", "alice started following you."])
    }

    @Test("rows are ordered by their newest notification across kinds")
    func mixedOrder() {
        let rows = ActivityGrouping.group([
            like(10, by: 2, "alice", post: post, minutesAgo: 60),
            follow(30, by: 3, "bob", minutesAgo: 30),
            like(11, by: 4, "carol", post: post, minutesAgo: 10),
            comment(20, by: 5, "dave", body: "nice", minutesAgo: 20),
        ])
        #expect(rows.map(\.activityType) == [.like, .comment, .follow])
        #expect(rows.first?.createdAt == Fixture.ago(600))
    }

    @Test("a like without a post stays on its own; a missing profile reads 'Someone'")
    func likeWithoutPost() throws {
        var orphan = like(10, by: 2, "alice", post: nil, minutesAgo: 1)
        orphan.actorProfile = nil
        let rows = ActivityGrouping.group([orphan, like(11, by: 3, "bob", post: nil, minutesAgo: 2)])
        try #require(rows.count == 2)
        #expect(rows[0].text == "Someone liked your photo.")
        #expect(rows[0].actors.isEmpty)
    }

    @Test("a row is unread while any of its notifications is; marking it read marks every one")
    func groupUnreadState() throws {
        let activities = [
            like(10, by: 2, "alice", post: post, minutesAgo: 5, read: true),
            like(11, by: 3, "bob", post: post, minutesAgo: 3),
            like(12, by: 4, "carol", post: post, minutesAgo: 1),
            follow(30, by: 5, "dave", minutesAgo: 2),
        ]
        #expect(Activity.unreadCount(activities) == 3)
        let row = try #require(ActivityGrouping.group(activities).first)
        #expect(!row.isRead)
        #expect(row.unreadCount == 2)
        #expect(Set(row.unreadActivityIds) == [Fixture.uuid(11), Fixture.uuid(12)])
        #expect(row.markingRead().isRead)
        let updated = ActivityGrouping.markingRead(row.activityIds, in: activities)
        #expect(Activity.unreadCount(updated) == 1)
        let regrouped = ActivityGrouping.group(updated)
        try #require(regrouped.count == 2)
        #expect(regrouped[0].isRead)
        #expect(!regrouped[1].isRead)
    }

    @Test("the row's time is compact and relative to its newest notification")
    func rowRelativeTime() throws {
        let row = try #require(ActivityGrouping.group([
            like(10, by: 2, "alice", post: post, minutesAgo: 3 * 60 * 24),
            like(11, by: 3, "bob", post: post, minutesAgo: 120),
        ]).first)
        #expect(row.relativeTime(now: Fixture.now) == "2h")
    }

    @Test("the 30-day window starts 30 days before now")
    func window() {
        #expect(Activity.windowStart(now: Fixture.now) == Fixture.daysAgo(30))
    }

    @Test("no notifications, no rows")
    func empty() {
        #expect(ActivityGrouping.group([]).isEmpty)
        #expect(Activity.unreadCount([]) == 0)
    }

    @Test("notifications encode camelCase with lower-case ids and round-trip")
    func json() throws {
        let activity = comment(20, by: 2, "alice", body: "hi", minutesAgo: 1)
        let object = try Fixture.jsonObject(activity)
        #expect(object["activityType"] as? String == "comment")
        #expect(object["actorId"] as? String == Fixture.uuid(2).lowercasedString)
        #expect(object["createdAt"] as? String == "2026-02-08T11:59:00.000+00:00")
        #expect((object["actorProfile"] as? [String: Any])?["username"] as? String == "alice")
        let decoded = try JSONDecoder().decode(Activity.self, from: JSONEncoder().encode(activity))
        #expect(decoded == activity)
        let row = try Fixture.jsonObject(try #require(ActivityGrouping.group([activity]).first))
        #expect(row["text"] as? String == "alice commented: hi")
        #expect(row["isGrouped"] as? Bool == false)
    }
}
