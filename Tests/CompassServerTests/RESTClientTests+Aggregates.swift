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
        try await harness.database.run(script: aggregatesSQL)
        _ = try await harness.server.rest.store.reload()
        let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/rest_aggregates.py").path
        let run = try await ChildProcess.run(
            [python, script, harness.url, harness.keys.anon, try json(["sofia": tokens["sofia"]!])], timeout: .seconds(120))
        #expect(run.code == 0, "python client failed: \(run.error.suffix(3000))")
        #expect(run.output.split(separator: "\n").last?.contains("embedded counts") == true)
    }
}
