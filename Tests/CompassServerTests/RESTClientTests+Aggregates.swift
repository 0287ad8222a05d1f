import CompassTestSupport
import Foundation
import Testing

/// Aggregate functions through the official client (the server runs with them enabled), on a
/// table of scores made first and on the demo schools' offers under RLS.
extension RESTClientTests {
    static let aggregatesSQL = """
        CREATE TABLE public.scores (id int PRIMARY KEY, team text NOT NULL, points int NOT NULL);
        GRANT SELECT ON public.scores TO authenticated;
        INSERT INTO public.scores VALUES (1, 'blue', 10), (2, 'blue', 25), (3, 'red', 20), (4, 'red', 5);
        """

    static func checkAggregates(harness: ServerHarness, python: String, tokens: [String: String]) async throws {
        try await runAsSofia(
            "rest_aggregates.py", after: aggregatesSQL, harness: harness, python: python, tokens: tokens, lastCheck: "embedded counts")
    }
}
