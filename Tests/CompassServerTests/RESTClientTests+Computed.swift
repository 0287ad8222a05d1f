import CompassTestSupport
import Foundation
import Testing

/// Computed fields and relationships, and data representations, through the official client, on
/// the same server as the seeds' queries (one harness fewer): two functions of `schools` rows and
/// a table with a domain shown as `#RRGGBB` are made first.
extension RESTClientTests {
    static let computedSQL = """
        CREATE FUNCTION public.shouted_name(public.schools) RETURNS text LANGUAGE sql STABLE AS 'SELECT upper($1.name)';
        CREATE FUNCTION public.school_coaches(public.schools) RETURNS SETOF public.coaches LANGUAGE sql STABLE
            AS 'SELECT * FROM public.coaches WHERE school_id = $1.id';
        """ + HexColorDomain.sql(named: "hex_color") + """
        CREATE TABLE public.labels (id int PRIMARY KEY, color public.hex_color);
        GRANT SELECT, INSERT ON public.labels TO authenticated;
        """

    static func checkComputed(harness: ServerHarness, python: String, tokens: [String: String]) async throws {
        try await runAsSofia(
            "rest_computed.py", after: computedSQL, harness: harness, python: python, tokens: tokens, lastCheck: "data representations")
    }

    /// Runs `setup` (then reloads the schema cache) and a script of `Python/` as Sofia; the
    /// script asserts, and its last line names the checks it passed.
    static func runAsSofia(
        _ name: String, after setup: String, harness: ServerHarness, python: String, tokens: [String: String], lastCheck: String
    ) async throws {
        try await harness.database.run(script: setup)
        _ = try await harness.server.rest.store.reload()
        let script = TestCluster.repositoryRoot.appendingPathComponent("Tests/CompassServerTests/Python/" + name).path
        let run = try await ChildProcess.run(
            [python, script, harness.url, harness.keys.anon, try json(["sofia": tokens["sofia"]!])], timeout: .seconds(120))
        #expect(run.code == 0, "python client failed: \(run.error.suffix(3000))")
        #expect(run.output.split(separator: "\n").last?.contains(lastCheck) == true)
    }
}
