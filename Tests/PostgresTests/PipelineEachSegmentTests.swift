import CompassTestSupport
import Foundation
import Synchronization
import Testing

@testable import Postgres

/// `pipeline(segments:whileWaiting:eachSegment:)` hands each segment's results over as soon as
/// they are read, so the client works on the first segments while the server runs the later ones.
@Suite("A pipeline's segments handed over one by one")
struct PipelineEachSegmentTests {
    @Test func aSegmentIsHandedOverBeforeTheNextOneHasAnswered() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let started = ContinuousClock.now
            let (made, _) = try await connection.pipeline(
                segments: [["SELECT 1::int4"], ["SELECT 2::int4 FROM pg_sleep(1)"]], whileWaiting: {},
                eachSegment: { index, results in
                    (index, try? results[0].get()[0].decode(Int.self, at: 0), ContinuousClock.now - started)
                })
            #expect(made.map(\.0) == [0, 1])
            #expect(made.map(\.1) == [1, 2])
            // The first segment was in hand while the second still slept.
            #expect(made[0].2 < .milliseconds(800))
            #expect(made[1].2 >= .seconds(1))
            await connection.close()
        }
    }

    @Test func everySegmentIsHandedOverOnceWithWhatThePipelineWouldReturn() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let segments: [[PostgresQuery]] = [["SELECT 1::int4", "SELECT 1/0", "SELECT 3::int4"], [], ["SELECT 'x'::text"]]
            let calls = Mutex<[Int]>([])
            let (made, _) = try await connection.pipeline(
                segments: segments, whileWaiting: {},
                eachSegment: { index, results in
                    calls.withLock { $0.append(index) }
                    return results.map(Self.summary)
                })
            let plain = try await connection.pipeline(segments: segments)
            #expect(calls.withLock { $0 } == [0, 1, 2])
            #expect(made == plain.map { $0.map(Self.summary) })
            #expect(made[0] == ["1 row", "\(PostgresError.Code.server)", "\(PostgresError.Code.pipelineAborted)"])
            await connection.close()
        }
    }

    /// A result as its row count, or its error's code.
    static func summary(_ result: Result<PostgresResult, PostgresError>) -> String {
        switch result {
        case .success(let rows): "\(rows.count) row\(rows.count == 1 ? "" : "s")"
        case .failure(let error): "\(error.code)"
        }
    }

    @Test func aSegmentSentAgainForAStaleStatementIsHandedOverOnceWithItsSecondAnswer() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let query = PostgresQuery(unsafeSQL: "SELECT $1::text", binds: ["x"]).prepared
            _ = try await connection.query(query)
            // Dropped behind the cache's back: the first attempt fails, the pipeline sends the segment again.
            try await connection.executeScript(unsafeSQL: "DEALLOCATE ALL")
            let calls = Mutex<[Int]>([])
            let (made, _) = try await connection.pipeline(
                segments: [["SELECT 1::int4"], [query]], whileWaiting: {},
                eachSegment: { index, results in
                    calls.withLock { $0.append(index) }
                    return try? results[0].get()[0].decode(String.self, at: 0)
                })
            #expect(calls.withLock { $0 } == [0, 1])
            #expect(made == ["1", "x"])
            await connection.close()
        }
    }
}
