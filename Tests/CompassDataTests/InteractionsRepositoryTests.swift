import CompassData
import CompassDomain
import CompassTestSupport
import Foundation
import Postgres
import Testing

@Suite("Interactions repository (seed 004)")
struct InteractionsRepositoryTests {
    @Test func anAthleteSeesOnlyWhatTheyLogged() async throws {
        try await Demo.withDatabase { connection in
            let records = try await InteractionsRepository(scope: .user(Demo.marcus, on: connection)).load(.athlete)
            #expect(records.interactions.count == 14)
            #expect(records.interactions.allSatisfy { $0.loggedBy == Demo.marcus })
            let listing = records.listing(filters: InteractionFilters())
            let first = try #require(listing.interactions.first)
            #expect(first.interaction.subject == "Good luck this weekend")
            #expect(first.schoolName == "University of Michigan")
            #expect(first.coachName != nil && first.coachName != InteractionNameLookup.unknownCoachName)
            #expect(listing.analytics.totalCount == 14)
        }
    }

    @Test func aParentSeesTheWholeFamily() async throws {
        try await Demo.withDatabase { connection in
            let records = try await InteractionsRepository(scope: .user(Demo.grace, on: connection))
                .load(.family(Demo.chenFamily))
            #expect(records.interactions.count == 23)
            #expect(Set(records.interactions.map(\.loggedBy)) == [Demo.marcus, Demo.lily])
            #expect(Set(records.names.schoolNames.values) == ["Arizona State University", "University of Michigan", "Duke University"])
            let lilyOnly = records.listing(filters: InteractionFilters(loggedBy: Demo.lily))
            #expect(lilyOnly.interactions.count == 9)
            #expect(lilyOnly.analytics.totalCount == 9)
        }
    }

    @Test func schoolsAndCoachesAreOneQueryEach() async throws {
        try await Demo.withDatabase { connection in
            let recorder = QueryRecorder()
            _ = try await InteractionsRepository(scope: .user(Demo.grace, on: connection, recorder: recorder))
                .load(.family(Demo.chenFamily))
            #expect(recorder.statements.filter { $0.contains("FROM schools") }.count == 1)
            #expect(recorder.statements.filter { $0.contains("FROM coaches WHERE school_id = ANY($1)") }.count == 1)
            #expect(recorder.roundTrips.count == 2)
        }
    }

    @Test func aUserWhoIsNotAParentOfTheFamilyGetsAClearError() async throws {
        try await Demo.withDatabase { connection in
            await #expect(throws: DataAccessError.notParentOfFamily(userId: Demo.maria, familyId: Demo.chenFamily)) {
                _ = try await InteractionsRepository(scope: .user(Demo.maria, on: connection)).load(.family(Demo.chenFamily))
            }
            await #expect(throws: DataAccessError.notParentOfFamily(userId: Demo.sofia, familyId: Demo.riveraFamily)) {
                _ = try await InteractionsRepository(scope: .user(Demo.sofia, on: connection)).load(.family(Demo.riveraFamily))
            }
        }
    }

    @Test func deletedSchoolsAndCoachesReadUnknown() async throws {
        try await Demo.withDatabase { connection in
            // A coach deleted: interactions keep nothing (ON DELETE SET NULL) -> no coach line;
            // a coach id that no longer resolves (moved to a school outside the family) -> Unknown Coach.
            let duke = UUID(uuidString: "5c000000-0000-4000-8000-000000000006")!
            let otherSchool = UUID(uuidString: "5c000000-0000-4000-8000-000000000001")!
            try await connection.query(
                "UPDATE coaches SET school_id = \(otherSchool) WHERE id = 'c0000000-0000-4000-8000-000000000009'")
            try await connection.query("UPDATE schools SET family_unit_id = \(Demo.riveraFamily) WHERE id = \(duke)")
            let records = try await InteractionsRepository(scope: .user(Demo.lily, on: connection)).load(.athlete)
            let listing = records.listing(filters: InteractionFilters())
            let email = try #require(listing.interactions.first { $0.interaction.subject == "Freshman swimmer introduction" })
            #expect(email.schoolName == InteractionNameLookup.unknownSchoolName)
            #expect(email.coachName == InteractionNameLookup.unknownCoachName)
            let clinic = try #require(listing.interactions.first { $0.interaction.subject == "Regional swim clinic" })
            #expect(clinic.schoolName == nil && clinic.coachName == nil)
        }
    }

    @Test func filtersAndAnalyticsComputeOnTheFilteredList() async throws {
        try await Demo.withDatabase { connection in
            let records = try await InteractionsRepository(scope: .user(Demo.sofia, on: connection)).load(.athlete)
            let inbound = records.listing(filters: InteractionFilters(direction: .inbound))
            #expect(inbound.analytics.totalCount == inbound.interactions.count)
            #expect(inbound.analytics.outboundCount == 0)
            let week = records.listing(filters: InteractionFilters(timePeriod: .last7Days))
            #expect(week.interactions.count == 4)
        }
    }
}
