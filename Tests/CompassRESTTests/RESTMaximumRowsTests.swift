import CompassHTTP
import Foundation
import HTTPTypes
import Testing

@testable import CompassREST

/// `COMPASS_REST_MAX_ROWS` (PostgREST's `db-max-rows`): reads and calls return at most that many
/// rows at every level, a smaller `limit` still wins, and writes return every row they touched.
@Suite("REST maximum rows", .serialized)
struct RESTMaximumRowsTests {
    static let fixtures = """
        CREATE TABLE public.rest_shelves (id int PRIMARY KEY);
        CREATE TABLE public.rest_books (id int PRIMARY KEY, shelf_id int REFERENCES public.rest_shelves (id));
        INSERT INTO public.rest_shelves SELECT generate_series(1, 5);
        INSERT INTO public.rest_books SELECT n, 1 + n % 2 FROM generate_series(1, 9) AS n;
        CREATE FUNCTION public.rest_all_books() RETURNS SETOF public.rest_books LANGUAGE sql STABLE
            AS 'SELECT * FROM public.rest_books';
        CREATE FUNCTION public.rest_numbers() RETURNS SETOF int LANGUAGE sql STABLE AS 'SELECT generate_series(1, 9)';
        GRANT SELECT, UPDATE ON public.rest_shelves, public.rest_books TO anon, authenticated, service_role;
        """

    static var threeRows: RESTConfiguration {
        var configuration = RESTConfiguration()
        configuration.maximumRows = 3
        return configuration
    }

    @Test func readsAndCallsReturnAtMostTheMaximumAtEveryLevel() async throws {
        try await RESTHarness.with(configuration: Self.threeRows) { rest in
            try await rest.addFixtures(Self.fixtures)
            let counted = try await rest.request(.get, "rest_books?order=id", headers: ["Prefer": "count=exact"])
            #expect(counted.status == 206)
            #expect(counted.array.map { $0["id"] as? Int } == [1, 2, 3])
            #expect(counted.header("Content-Range") == "0-2/9")
            let smaller = try await rest.request(.get, "rest_books?order=id&limit=1&offset=4")
            #expect(smaller.array.map { $0["id"] as? Int } == [5])
            #expect(smaller.header("Content-Range") == "4-4/*")
            let embedded = try await rest.request(.get, "rest_shelves?select=id,rest_books(id)&id=eq.2&rest_books.order=id")
            #expect(embedded.hasJSON(#"[{"id": 2, "rest_books": [{"id": 1}, {"id": 3}, {"id": 5}]}]"#))
            let called = try await rest.request(.get, "rpc/rest_all_books?order=id.desc&select=id")
            #expect(called.array.map { $0["id"] as? Int } == [9, 8, 7])
            let scalars = try await rest.request(.post, "rpc/rest_numbers", body: "{}")
            #expect(scalars.hasJSON("[1, 2, 3]"))
            let updated = try await rest.request(
                .patch, "rest_books?shelf_id=eq.2&select=id", headers: ["Prefer": "return=representation"], body: #"{"shelf_id": 2}"#)
            #expect(updated.array.count == 5)
        }
    }

    @Test func theSettingIsAPositiveNumber() throws {
        #expect(RESTConfiguration().maximumRows == nil)
        #expect(try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_MAX_ROWS": "1000"])).maximumRows == 1000)
        #expect(throws: ConfigurationError.self) { try RESTConfiguration(reading: EnvironmentReader(["COMPASS_REST_MAX_ROWS": "0"])) }
    }
}
