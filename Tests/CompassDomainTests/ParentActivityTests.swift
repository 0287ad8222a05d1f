import Foundation
import Testing
@testable import CompassDomain

@Suite("Parent activity: model, texts, changes")
struct ParentActivityTests {
    let family = Fixture.uuid(700)
    let parent = Fixture.uuid(701)

    func activity(_ n: Int, _ type: ParentActivityType = .pointsAdjusted, at date: Date,
                  changes: ParentActivityChanges = ParentActivityChanges()) -> ParentActivity {
        ParentActivity(id: Fixture.uuid(n), familyId: family, triggeringUserId: parent, activityType: type,
                       targetEntity: "Emma", targetEntityId: Fixture.uuid(800), changes: changes,
                       deviceId: "iPad-1", createdAt: date)
    }

    @Test("the eight types keep the SQL's snake_case values")
    func rawValues() {
        #expect(ParentActivityType.allCases.map(\.rawValue) == [
            "app_categorization_added", "app_categorization_modified", "app_categorization_removed",
            "points_adjusted", "reward_redeemed", "child_profile_modified", "settings_updated", "child_added",
        ])
        #expect(ParentActivityType(rawValue: "pointsAdjusted") == nil)
    }

    @Test("each type has a title and an action phrase", arguments: ParentActivityType.allCases)
    func texts(type: ParentActivityType) {
        #expect(!type.displayName.isEmpty && !type.actionPhrase.isEmpty && !type.symbolName.isEmpty)
        #expect(activity(1, type, at: Fixture.now).summary(parentName: "Sam") == "Sam \(type.actionPhrase): Emma")
    }

    @Test("the feed line names the parent, the action and the target")
    func summary() {
        #expect(activity(1, .rewardRedeemed, at: Fixture.now).summary(parentName: "Sam") == "Sam redeemed a reward: Emma")
        #expect(ParentActivityType.childAdded.displayName == "New Child Added")
    }

    @Test("changes describe before and after values")
    func changeTexts() {
        #expect(ParentActivityChange(field: "points", before: 10, after: 15).description == "Points: 10 → 15")
        #expect(ParentActivityChange(field: "daily_limit_minutes", before: nil, after: 90).description
                == "Daily Limit Minutes: set to 90")
        #expect(ParentActivityChange(field: "category", before: "Games", after: nil).description
                == "Category: removed (was Games)")
        #expect(ParentActivityChange(field: "enabled", before: false, after: true).description == "Enabled: false → true")
        #expect(ParentActivityChange(field: "ratio", before: 1.5, after: 2.0).description == "Ratio: 1.5 → 2")
    }

    @Test("changes read and write the jsonb text")
    func changesJSON() throws {
        let changes = ParentActivityChanges([
            ParentActivityChange(field: "points", before: 10, after: 15),
            ParentActivityChange(field: "apps", before: nil, after: ["YouTube", "Khan Academy"]),
        ])
        #expect(changes.jsonText == #"{"apps":{"after":["YouTube","Khan Academy"]},"points":{"after":15,"before":10}}"#)
        #expect(try ParentActivityChanges(jsonText: changes.jsonText) == changes)
        #expect(changes.changes.map(\.field) == ["apps", "points"])
        #expect(changes["points"]?.after == 15)
    }

    @Test("null sides, and values of another shape, still read")
    func lenientChanges() throws {
        let changes = try ParentActivityChanges(jsonText: #"{"a":{"before":null,"after":"x"},"b":7,"c":{"nested":true}}"#)
        #expect(changes["a"] == ParentActivityChange(field: "a", before: nil, after: "x"))
        #expect(changes["b"] == ParentActivityChange(field: "b", before: nil, after: 7))
        #expect(changes["c"]?.after == ["nested": true])
        #expect(try ParentActivityChanges(jsonText: "{}").isEmpty)
        #expect(throws: (any Error).self) { try ParentActivityChanges(jsonText: "[1,2]") }
    }

    @Test("the JSON uses the spec's field names and round-trips")
    func json() throws {
        let value = activity(1, at: Fixture.date("2026-02-08T11:00:00.123Z"),
                             changes: ParentActivityChanges([ParentActivityChange(field: "points", before: 1, after: 2)]))
        let object = try Fixture.jsonObject(value)
        #expect(Set(object.keys) == ["id", "familyID", "triggeringUserID", "activityType", "targetEntity",
                                     "targetEntityID", "changes", "deviceID", "timestamp"])
        #expect(object["activityType"] as? String == "points_adjusted")
        #expect(object["timestamp"] as? String == "2026-02-08T11:00:00.123+00:00")
        #expect(object["familyID"] as? String == family.lowercasedString)
        #expect(try JSONDecoder().decode(ParentActivity.self, from: JSONEncoder().encode(value)) == value)
    }

    @Test("the window keeps the last 30 days")
    func window() {
        #expect(ParentActivity.windowStart(now: Fixture.now) == Fixture.daysAgo(30))
        #expect(activity(1, at: Fixture.daysAgo(30)).isWithinWindow(now: Fixture.now))
        #expect(!activity(1, at: Fixture.daysAgo(30).addingTimeInterval(-1)).isWithinWindow(now: Fixture.now))
    }
}
