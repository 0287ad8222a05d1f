import Foundation
import Testing

@testable import CompassREST

/// `Prefer: timezone=…`: the request's timestamps are written in that zone, as PostgREST does.
@Suite("REST Prefer: timezone", .serialized)
struct RESTTimeZoneTests {
    static let stampsSQL = """
        CREATE TABLE public.rest_stamps (id int PRIMARY KEY, at timestamptz NOT NULL);
        INSERT INTO public.rest_stamps VALUES (1, '2023-10-18 12:37:59.611+00');
        GRANT SELECT, INSERT ON public.rest_stamps TO anon, authenticated, service_role;
        """

    @Test func timestampsAreWrittenInThePreferredZone() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.stampsSQL)
            let plain = try await rest.request(.get, "rest_stamps?select=at")
            #expect(plain.array.first?["at"] as? String == "2023-10-18T12:37:59.611+00:00")
            #expect(plain.header("Preference-Applied") == nil)

            let zoned = try await rest.request(.get, "rest_stamps?select=at", headers: ["Prefer": "handling=strict, timezone=America/Los_Angeles"])
            #expect(zoned.array.first?["at"] as? String == "2023-10-18T05:37:59.611-07:00")
            #expect(zoned.header("Preference-Applied") == "handling=strict, timezone=America/Los_Angeles")
            // A number is an offset in hours; only the first timezone counts.
            let offset = try await rest.request(.get, "rest_stamps?select=at", headers: ["Prefer": "timezone=-4, timezone=UTC"])
            #expect(offset.array.first?["at"] as? String == "2023-10-18T08:37:59.611-04:00")
            #expect(offset.header("Preference-Applied") == "timezone=-4")
            // The zone lasts for the request only: the next one on the same pool is in UTC again.
            let after = try await rest.request(.get, "rest_stamps?select=at")
            #expect(after.array.first?["at"] as? String == "2023-10-18T12:37:59.611+00:00")
        }
    }

    @Test func anUnknownZoneIsRefusedAndChangesNothing() async throws {
        try await RESTHarness.with { rest in
            try await rest.addFixtures(Self.stampsSQL)
            let refused = try await rest.request(
                .post, "rest_stamps", headers: ["Prefer": "handling=lenient, timezone=Invalid/Timezone"], body: #"{"id": 2, "at": "2024-01-01T00:00:00Z"}"#)
            #expect(refused.isError("22023", status: 400))
            #expect(refused.object["message"] as? String == #"invalid value for parameter "TimeZone": "Invalid/Timezone""#)
            #expect(try await rest.count("SELECT count(*)::int FROM public.rest_stamps") == 1)
        }
    }
}
