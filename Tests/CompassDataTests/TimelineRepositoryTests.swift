import CompassData
import CompassDomain
import CompassTestSupport
import Foundation
import Postgres
import Testing

@Suite("Timeline repository (seed 002)")
struct TimelineRepositoryTests {
    @Test func loadsEventsInteractionsOffersAndStatusChangesWithSchoolNames() async throws {
        try await Demo.withDatabase { connection in
            let timeline = try await TimelineRepository(scope: .user(Demo.sofia, on: connection)).load()
            let counts = Dictionary(grouping: timeline.items, by: \.type).mapValues(\.count)
            #expect(counts == [.event: 4, .interaction: 20, .offer: 2, .statusChange: 7])
            #expect(timeline.schools.map(\.name) == ["Stanford University", "UCLA", "University of North Carolina"])
            let offer = try #require(timeline.items.first { $0.id.hasSuffix("0ff00000-0000-4000-8000-000000000001") })
            #expect(offer.schoolName == "University of North Carolina")
            let showcase = try #require(timeline.items.first { $0.id.hasSuffix("e0000000-0000-4000-8000-000000000001") })
            #expect(showcase.schoolName == nil)
            let layout = TimelineViewState(viewRange: .allTime).layout(of: timeline.items, today: Date())
            #expect(layout.swimlanes.map(\.schoolName).contains("No School"))
        }
    }

    @Test func statusHistoryIsOneQueryWhateverTheNumberOfSchools() async throws {
        for schoolCount in [1, 25] {
            try await Demo.withEmptyDatabase { connection in
                let athlete = try await Demo.createUser(on: connection)
                let family = try await Demo.createFamily([(athlete, "athlete")], on: connection)
                try await connection.query(
                    """
                    INSERT INTO schools (family_unit_id, user_id, name)
                    SELECT \(family), \(athlete), 'School ' || lpad(g::text, 2, '0') FROM generate_series(1, \(schoolCount)) AS g
                    """)
                try await connection.query(
                    """
                    INSERT INTO school_status_history (school_id, previous_status, new_status, changed_by, changed_at)
                    SELECT s.id, 'researching', 'contacted', \(athlete), now() - interval '1 day' FROM schools AS s
                    """)
                let recorder = QueryRecorder()
                let before = await connection.roundTrips
                let timeline = try await TimelineRepository(scope: .user(athlete, on: connection, recorder: recorder)).load()
                #expect(await connection.roundTrips - before == 2)
                let historyQueries = recorder.statements.filter { $0.contains("FROM school_status_history") }
                #expect(historyQueries.count == 1)
                #expect(historyQueries.first?.contains("school_id = ANY($1)") == true)
                #expect(timeline.items.filter { $0.type == .statusChange }.count == schoolCount)
                #expect(timeline.schools.count == schoolCount)
            }
        }
    }

    @Test func anotherFamilysAthleteTimelineIsEmptyUnderRLS() async throws {
        try await Demo.withDatabase { connection in
            let timeline = try await TimelineRepository(scope: .user(Demo.marcus, on: connection)).load(athleteId: Demo.sofia)
            #expect(timeline.items.isEmpty)
            // Her parent does see it.
            let parentView = try await TimelineRepository(scope: .user(Demo.maria, on: connection)).load(athleteId: Demo.sofia)
            #expect(parentView.items.count == 33)
        }
    }
}
