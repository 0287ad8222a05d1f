import CompassTestSupport
import CompassTokens
import Foundation
import Postgres
import Testing

@testable import CompassData

/// The official Python `supabase` client, unchanged, runs every query the five seeds show
/// against a live compass-worker; the reads must match the data layer's exact queries run
/// under the same user's RLS. The test makes its own virtualenv and fails (never skips)
/// when it cannot.
@Suite("End to end with the Python supabase client over /rest/v1")
struct RESTClientTests {
    static let requirement = "supabase==2.34.1"

    @Test func theSeedsQueriesThroughTheOfficialClient() async throws {
        let python = try await PythonEnvironment.python(with: [Self.requirement])
        // Aggregates on: the seeds' queries must not change with them (checkAggregates uses them).
        try await ServerHarness.with(adjust: { $0.rest.allowsAggregates = true }) { harness in
            let expected = try await Expected.load(harness.database)
            let issuer = try await AccessTokenIssuer(secret: ServerHarness.secret)
            var tokens: [String: String] = [:]
            for (name, user) in [("sofia", DemoUsers.sofia), ("marcus", DemoUsers.marcus), ("maria", DemoUsers.maria), ("jordan", DemoUsers.jordan)] {
                tokens[name] = try await issuer.token(role: .authenticated, subject: user.uuidString.lowercased(), lifetime: 600)
            }
            let users = [
                "sofia": DemoUsers.sofia.uuidString.lowercased(), "marcus": DemoUsers.marcus.uuidString.lowercased(),
                "maria": DemoUsers.maria.uuidString.lowercased(), "jordan": DemoUsers.jordan.uuidString.lowercased(),
                "family": DemoUsers.riveraFamily.uuidString.lowercased(),
            ]
            let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/rest_client.py").path
            let run = try await ChildProcess.run(
                [python, script, harness.url, harness.keys.anon, try Self.json(tokens), try Self.json(users)], timeout: .seconds(180))
            #expect(run.code == 0, "python client failed: \(run.error.suffix(3000))")
            guard run.code == 0 else { return }
            let line = try #require(run.output.split(separator: "\n").last)
            let out = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])

            let feed = try #require(out["feed"] as? [String: Any])
            #expect(feed["interactions"] as? [String] == expected.feedInteractions)
            #expect(feed["status"] as? [String] == expected.feedStatus)
            #expect(feed["documents"] as? [String] == expected.feedDocuments)
            #expect(feed["schools"] as? [String] == expected.feedSchools)
            #expect((feed["timestamps"] as? [String])?.allSatisfy { $0.hasSuffix("+00:00") } == true)

            let timeline = try #require(out["timeline"] as? [String: Any])
            #expect(timeline["events"] as? [String] == expected.events)
            #expect(timeline["interactions"] as? [String] == expected.timelineInteractions)
            #expect(timeline["offers"] as? [String] == expected.offers)
            #expect(timeline["schools"] as? [String] == expected.schools)
            #expect(timeline["history"] as? [String] == expected.history)

            let interactions = try #require(out["interactions"] as? [String: Any])
            #expect(interactions["athlete"] as? [String] == expected.athlete)
            #expect(interactions["parent"] as? [String] == expected.parent)
            #expect((interactions["parent"] as? [String])?.isEmpty == false)
            #expect(interactions["schools"] as? [String] == expected.familySchools)
            #expect(interactions["coaches"] as? [String] == expected.coaches)
            #expect((interactions["marcus_sees_sofias"] as? [Any])?.isEmpty == true)
            #expect((interactions["marcus_sees_rivera"] as? [Any])?.isEmpty == true)

            let notifications = try #require(out["notifications"] as? [String: Any])
            #expect(notifications["ids"] as? [String] == expected.notifications.map(\.id))
            let actors = try #require(notifications["actors"] as? [[String: Any]])
            #expect(actors.map { $0["username"] as? String } == expected.notifications.map(\.actor))
            #expect(notifications["unread"] as? Int == expected.unread)
            #expect(notifications["page_count"] as? Int == expected.allNotifications)
            #expect((notifications["page"] as? [String])?.count == 2)
            #expect(notifications["single"] as? String == expected.notifications.first?.id)
            #expect((notifications["jordan_sees_sofias"] as? [Any])?.isEmpty == true)

            let refused = try #require(out["activities_insert"] as? [String: Any])
            #expect(refused["code"] as? String == "42501")
            #expect(refused["message"] as? String == #"new row violates row-level security policy for table "activities""#)

            let family = try #require(out["family"] as? [String: Any])
            let recorded = try #require(family["recorded"] as? String)
            let familyFeed = try #require(family["feed"] as? [String])
            #expect(familyFeed.first == recorded)
            let page = try await Expected.familyPage(harness.database)
            #expect(familyFeed == page)
            #expect(family["second_page"] as? [String] == Array(page.dropFirst(2).prefix(2)))
            #expect((family["changes"] as? [String: Any])?["points"] != nil)
            #expect((family["sofia_sees"] as? [Any])?.isEmpty == true)

            let connection = try await harness.database.connect()
            let left = try await connection.query("SELECT count(*)::int FROM public.activities WHERE user_id = \(DemoUsers.sofia)")
            await connection.close()
            #expect(try left[0].decode(Int.self, at: 0) == 0)

            // PostgREST's features beyond the seeds' queries, on the same server (one harness fewer).
            let shapes = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/rest_query_shapes.py").path
            let shaped = try await ChildProcess.run(
                [python, shapes, harness.url, harness.keys.anon, harness.keys.serviceRole,
                 try Self.json(["sofia": tokens["sofia"]!, "maria": tokens["maria"]!]), try Self.json(["sofia": users["sofia"]!])],
                timeout: .seconds(180))
            #expect(shaped.code == 0, "python client failed: \(shaped.error.suffix(3000))")
            let summary = shaped.output.split(separator: "\n").last ?? ""
            for check in ["max-affected", "missing=default", "planned count"] { #expect(summary.contains(check), "\(check)") }
            try await Self.checkComputed(harness: harness, python: python, tokens: tokens)
            try await Self.checkAggregates(harness: harness, python: python, tokens: tokens)
        }
    }

    static func json(_ value: [String: String]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value), as: UTF8.self)
    }
}

/// The same reads through the data layer's exact queries, under each user's scope.
struct Expected {
    var feedInteractions: [String] = [], feedStatus: [String] = [], feedDocuments: [String] = [], feedSchools: [String] = []
    var events: [String] = [], timelineInteractions: [String] = [], offers: [String] = [], schools: [String] = [], history: [String] = []
    var athlete: [String] = [], parent: [String] = [], familySchools: [String] = [], coaches: [String] = []
    var notifications: [(id: String, actor: String)] = []
    var unread = 0
    var allNotifications = 0

    static func load(_ database: TestDatabase) async throws -> Expected {
        let connection = try await database.connect()
        do {
            let value = try await load(on: connection)
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }

    private static func load(on connection: PostgresConnection) async throws -> Expected {
        let sofia = DatabaseScope.user(DemoUsers.sofia, on: connection)
        let maria = DatabaseScope.user(DemoUsers.maria, on: connection)
        func ids(_ scope: DatabaseScope, _ query: PostgresQuery) async throws -> [String] {
            try await scope.query(query).map { try $0.decode(String.self, column: "id") }
        }
        var expected = Expected()
        expected.feedInteractions = try await ids(sofia, FeedRepository.interactionsQuery(userId: DemoUsers.sofia))
        expected.feedStatus = try await ids(sofia, FeedRepository.statusChangesQuery(userId: DemoUsers.sofia))
        expected.feedDocuments = try await ids(sofia, FeedRepository.documentsQuery(userId: DemoUsers.sofia))
        let feedSchoolIDs = try await sofia.query(
            "SELECT DISTINCT school_id FROM (\(FeedRepository.interactionsQuery(userId: DemoUsers.sofia))) AS i WHERE school_id IS NOT NULL UNION SELECT school_id FROM (\(FeedRepository.statusChangesQuery(userId: DemoUsers.sofia))) AS s WHERE school_id IS NOT NULL"
        ).map { UUID(uuidString: try $0.decode(String.self, at: 0))! }
        expected.feedSchools = try await ids(sofia, FeedRepository.schoolNamesQuery(ids: feedSchoolIDs)).sorted()
        expected.events = try await ids(sofia, TimelineRepository.eventsQuery(userId: DemoUsers.sofia)).sorted()
        expected.timelineInteractions = try await ids(sofia, TimelineRepository.interactionsQuery(userId: DemoUsers.sofia)).sorted()
        expected.offers = try await ids(sofia, TimelineRepository.offersQuery(athleteId: DemoUsers.sofia)).sorted()
        let schools = try await ids(sofia, TimelineRepository.schoolsQuery(userId: DemoUsers.sofia))
        expected.schools = schools.sorted()
        expected.history = try await ids(sofia, TimelineRepository.statusHistoryQuery(schoolIds: schools.map { UUID(uuidString: $0)! }))
        expected.athlete = try await ids(sofia, InteractionsRepository.athleteQuery(userId: DemoUsers.sofia))
        expected.parent = try await ids(maria, InteractionsRepository.familyQuery(familyId: DemoUsers.riveraFamily))
        let familySchools = try await ids(maria, InteractionsRepository.schoolsQuery(familyId: DemoUsers.riveraFamily))
        expected.familySchools = familySchools.sorted()
        expected.coaches = try await ids(maria, InteractionsRepository.coachesQuery(schoolIds: familySchools.map { UUID(uuidString: $0)! })).sorted()
        expected.notifications = try await sofia.query(NotificationsRepository.listQuery(userId: DemoUsers.sofia)).map {
            (try $0.decode(String.self, column: "id"), try $0.decode(String.self, column: "username"))
        }
        expected.unread = try await sofia.query(NotificationsRepository.unreadQuery(userId: DemoUsers.sofia))[0].decode(Int.self, at: 0)
        expected.allNotifications = try await sofia.query("SELECT count(*) FROM activities WHERE user_id = \(DemoUsers.sofia)")[0]
            .decode(Int.self, at: 0)
        return expected
    }

    /// Maria's first family-activity page, as the data layer reads it (20 rows).
    static func familyPage(_ database: TestDatabase) async throws -> [String] {
        let connection = try await database.connect()
        let scope = DatabaseScope.user(DemoUsers.maria, on: connection)
        let rows = try await scope.query(FamilyActivityRepository.firstPageQuery(familyId: DemoUsers.riveraFamily, limit: 20))
        await connection.close()
        return try rows.map { try $0.decode(String.self, column: "id") }
    }
}
