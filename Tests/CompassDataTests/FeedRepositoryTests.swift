import CompassData
import CompassDomain
import CompassTestSupport
import Foundation
import Postgres
import Testing

@Suite("Activity Feed repository (seed 000)")
struct FeedRepositoryTests {
    @Test func allThreeSourcesLoadMergeNewestFirstAndHydrateNames() async throws {
        try await Demo.withDatabase { connection in
            let feed = try await FeedRepository(scope: .user(Demo.sofia, on: connection)).load()
            #expect(feed.failures.isEmpty)
            #expect(feed.events.count == 20 + 7 + 4)
            #expect(Set(feed.events.map(\.type)) == Set(ActivityEventType.allCases))
            #expect(feed.events == ActivityFeed.sorted(feed.events))
            let dates = feed.events.map(\.date)
            #expect(dates == dates.sorted(by: >))
            // Names come from the one hydration query; interactions without a school read Unknown School.
            let ucla = try #require(feed.events.first { $0.id == "interaction-1a000000-0000-4000-8000-000000000019" })
            #expect(ucla.title == "Email with UCLA")
            #expect(ucla.entityName == "UCLA")
            let noSchool = try #require(feed.events.first { $0.id == "interaction-1a000000-0000-4000-8000-000000000018" })
            #expect(noSchool.title == "Dm with Unknown School" || noSchool.title.hasSuffix("with Unknown School"))
            let status = try #require(feed.events.first { $0.id == "status-55000000-0000-4000-8000-000000000007" })
            #expect(status.title == "University of North Carolina status changed to Offer Received")
            let document = try #require(feed.events.first { $0.id == "doc-d0c00000-0000-4000-8000-000000000004" })
            #expect(document.title == "Uploaded Transcript (junior spring)")
            #expect(!document.isClickable && document.clickUrl == nil)
            // occurred_at is the time of an interaction; created_at only when it is missing.
            let fallback = try #require(feed.events.first { $0.id == "interaction-1a000000-0000-4000-8000-000000000020" })
            #expect(abs(fallback.date.timeIntervalSinceNow + 86_400) < 120)
        }
    }

    @Test func feedIsTwoRoundTripsAndFourStatements() async throws {
        try await Demo.withDatabase { connection in
            let recorder = QueryRecorder()
            let before = await connection.roundTrips
            _ = try await FeedRepository(scope: .user(Demo.sofia, on: connection, recorder: recorder)).load()
            #expect(await connection.roundTrips - before == 2)
            #expect(recorder.roundTrips.map(\.count) == [3, 1])
            #expect(recorder.statements.last == "SELECT id, name FROM schools WHERE id = ANY($1)")
        }
    }

    @Test func noSchoolIdsMeansNoHydrationQuery() async throws {
        try await Demo.withDatabase { connection in
            // Grace (a parent) has one document and no interactions or status changes.
            let recorder = QueryRecorder()
            let feed = try await FeedRepository(scope: .user(Demo.grace, on: connection, recorder: recorder)).load()
            #expect(feed.events.map(\.id) == ["doc-d0c00000-0000-4000-8000-000000000009"])
            #expect(recorder.roundTrips.count == 1)
        }
    }

    @Test func limitFiftyPerSourceHoldsWithSixtyPlusRows() async throws {
        try await Demo.withEmptyDatabase { connection in
            let athlete = try await Demo.createUser(on: connection)
            let family = try await Demo.createFamily([(athlete, "athlete")], on: connection)
            let school = UUID()
            try await connection.query(
                "INSERT INTO schools (id, family_unit_id, user_id, name) VALUES (\(school), \(family), \(athlete), 'Big State')")
            try await connection.query(
                """
                INSERT INTO interactions (family_unit_id, user_id, logged_by, school_id, type, direction, content, created_at)
                SELECT \(family), \(athlete), \(athlete), \(school), 'email', 'outbound', 'n' || g, now() - g * interval '1 hour'
                  FROM generate_series(1, 65) AS g
                """)
            try await connection.query(
                """
                INSERT INTO school_status_history (school_id, new_status, changed_by, changed_at)
                SELECT \(school), 'contacted', \(athlete), now() - g * interval '1 hour' FROM generate_series(1, 62) AS g
                """)
            try await connection.query(
                """
                INSERT INTO documents (user_id, family_unit_id, title, type, created_at)
                SELECT \(athlete), \(family), 'Doc ' || g, 'transcript', now() - g * interval '1 hour'
                  FROM generate_series(1, 61) AS g
                """)
            let feed = try await FeedRepository(scope: .user(athlete, on: connection)).load()
            let byType = Dictionary(grouping: feed.events, by: \.type).mapValues(\.count)
            #expect(byType == [.interaction: 50, .schoolStatusChange: 50, .documentUpload: 50])
            // The 50 kept are the newest: the oldest interaction kept is n50, not n65.
            #expect(feed.events.contains { $0.description == "n50" })
            #expect(!feed.events.contains { $0.description == "n51" })
            #expect(feed.events.filter { $0.type == .interaction }.allSatisfy { $0.entityName == "Big State" })
        }
    }

    @Test func aFailedSourceYieldsTheOthersAndAWarningNamingIt() async throws {
        try await Demo.withDatabase { connection in
            try await connection.query("REVOKE SELECT ON documents FROM authenticated")
            let before = await connection.roundTrips
            let feed = try await FeedRepository(scope: .user(Demo.sofia, on: connection)).load()
            #expect(await connection.roundTrips - before == 2)
            #expect(feed.failedSources == [.documents])
            #expect(feed.failures[.documents]?.sqlState == .insufficientPrivilege)
            #expect(feed.warnings == [ActivityFeedSource.documents.warning])
            #expect(feed.warnings[0].hasPrefix("Documents"))
            #expect(feed.events.count == 20 + 7)
            #expect(!feed.events.contains { $0.type == .documentUpload })
        }
    }

    @Test func aFailedFirstSourceStillYieldsTheSourcesItsRoundTripSkipped() async throws {
        try await Demo.withDatabase { connection in
            let everything = try await FeedRepository(scope: .user(Demo.sofia, on: connection)).load()
            try await connection.query("REVOKE SELECT ON interactions FROM authenticated")
            let recorder = QueryRecorder()
            let before = await connection.roundTrips
            let feed = try await FeedRepository(scope: .user(Demo.sofia, on: connection, recorder: recorder)).load()
            // The three reads, the two the failure skipped (each on its own), the school names.
            #expect(await connection.roundTrips - before == 3)
            #expect(recorder.roundTrips.map(\.count) == [3, 2, 1])
            #expect(feed.failedSources == [.interactions])
            #expect(feed.failures[.interactions]?.sqlState == .insufficientPrivilege)
            #expect(feed.events == everything.events.filter { $0.type != .interaction })
            #expect(feed.events.contains { $0.type == .schoolStatusChange } && feed.events.contains { $0.type == .documentUpload })
        }
    }

    @Test func everySourceFailingIsAnError() async throws {
        try await Demo.withDatabase { connection in
            try await connection.query("REVOKE SELECT ON documents, interactions, school_status_history FROM authenticated")
            await #expect(throws: PostgresError.self) {
                _ = try await FeedRepository(scope: .user(Demo.sofia, on: connection)).load()
            }
        }
    }

    @Test func aSchoolTheUserCannotReadHydratesAsUnknownSchool() async throws {
        try await Demo.withDatabase { connection in
            // Stanford moves to Maria: Sofia's interaction still points at it, the lookup finds no name.
            try await connection.query("UPDATE schools SET user_id = \(Demo.maria) WHERE id = \(Demo.stanford)")
            let feed = try await FeedRepository(scope: .user(Demo.sofia, on: connection)).load()
            let email = try #require(feed.events.first { $0.id == "interaction-1a000000-0000-4000-8000-000000000001" })
            #expect(email.title == "Email with Unknown School")
            #expect(email.entityId == Demo.stanford.uuidString.lowercased())
        }
    }

    @Test func anotherUsersFeedIsEmptyUnderRLS() async throws {
        try await Demo.withDatabase { connection in
            // Jordan asks for nothing of his own; the queries ask by his id, RLS keeps the rest away.
            let feed = try await FeedRepository(scope: .user(Demo.jordan, on: connection)).load()
            #expect(feed.events.isEmpty)
        }
    }
}

@Suite("FeedResponse's JSON")
struct FeedResponseJSONTests {
    @Test func writtenWithWarningsIsByteForByteTheEncoders() async throws {
        try await Demo.withDatabase { connection in
            let snapshot = try await FeedRepository(scope: .user(Demo.sofia, on: connection)).load()
            var failed = snapshot
            failed.failures[.documents] = PostgresError(code: .server, message: "permission denied")
            for snapshot in [snapshot, failed] {
                let response = FeedResponse(request: FeedRequest(), snapshot: snapshot, now: Date())
                #expect(!response.page.events.isEmpty)
                let expected = try CompassJSON.encoder().encode(response) + Data("\n".utf8)
                #expect(String(decoding: try CompassJSON.encode(response), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
            }
        }
    }
}
