import CompassData
import CompassDomain
import CompassTestSupport
import Foundation
import Postgres
import Testing

/// The same repository code sent three ways (what FeedBenchmark times) gives the same answers.
@Suite("Scope sending: pipelined, segment by segment, statement by statement")
struct DatabaseScopeSendingTests {
    @Test func everyWayLoadsTheSameFeedInItsOwnRoundTrips() async throws {
        try await Demo.withDatabase { connection in
            var feeds: [DatabaseScope.Sending: [String]] = [:]
            var roundTrips: [DatabaseScope.Sending: Int] = [:]
            for sending in DatabaseScope.Sending.allCases {
                let before = await connection.roundTrips
                let feed = try await FeedRepository(scope: .user(Demo.sofia, on: connection, sending: sending)).load()
                roundTrips[sending] = await connection.roundTrips - before
                feeds[sending] = feed.events.map(\.id)
            }
            #expect(feeds[.pipelined]?.count == 31)
            #expect(feeds[.segmentBySegment] == feeds[.pipelined])
            #expect(feeds[.statementByStatement] == feeds[.pipelined])
            #expect(roundTrips[.pipelined] == 2)
            #expect(roundTrips[.segmentBySegment] == 4)  // three sources, then the names
            #expect((roundTrips[.statementByStatement] ?? 0) >= 16)  // BEGIN, scope, query, COMMIT, four times
        }
    }

    @Test func unpipelinedFailureAbortsTheRestOfItsTransactionOnly() async throws {
        try await Demo.withDatabase { connection in
            let scope = DatabaseScope.serviceRole(on: connection, sending: .statementByStatement)
            let results = try await scope.run(segments: [["SELECT 1/0", "SELECT 1"], ["SELECT 2::int4"]])
            guard case .failure(let failed) = results[0][0], case .failure(let aborted) = results[0][1] else {
                Issue.record("the first segment should fail")
                return
            }
            #expect(failed.sqlState == SQLState(rawValue: "22012"))
            #expect(aborted.code == .pipelineAborted)
            #expect(try results[1][0].get()[0].decode(Int.self, at: 0) == 2)
        }
    }
}
