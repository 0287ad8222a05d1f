import CompassTestSupport
import Foundation
import Synchronization
import Testing

@testable import Postgres

/// Client work that overlaps a round trip: `pipeline(segments:whileWaiting:)` runs it once the
/// statements are sent and before their answers are read.
@Suite("Work while a pipeline's answers are on the way")
struct PipelineWhileWaitingTests {
    @Test func theWorkRunsWhileTheServerIsStillAnsweringAndItsValueComesBack() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let started = ContinuousClock.now
            let (results, workStarted) = try await connection.pipeline(
                segments: [["SELECT 7::int4 FROM pg_sleep(1)"]], whileWaiting: { ContinuousClock.now })
            // The work did not wait for the one-second statement; the answer was still read after it.
            #expect(workStarted - started < .milliseconds(800))
            #expect(ContinuousClock.now - started >= .seconds(1))
            #expect(try results[0][0].get()[0].decode(Int.self, at: 0) == 7)
            await connection.close()
        }
    }

    @Test func theWorkRunsOnceWithNothingToSendAndNotAtAllWhenNothingCouldBeSent() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let runs = Atomic(0)
            let empty = try await connection.pipeline(segments: [[]], whileWaiting: { runs.wrappingAdd(1, ordering: .relaxed).newValue })
            #expect(empty.work == 1)
            // A NUL byte is refused before anything is sent: no work, and the connection is unharmed.
            await #expect(throws: PostgresError.self) {
                try await connection.pipeline(
                    segments: [["SELECT \("a\u{0}b")::text"]], whileWaiting: { runs.wrappingAdd(1, ordering: .relaxed).newValue })
            }
            #expect(runs.load(ordering: .relaxed) == 1)
            #expect(try await connection.query("SELECT 1::int4").count == 1)
            await connection.close()
        }
    }

    @Test func aSegmentsFailureStillRunsTheWorkOnceAndKeepsTheOtherSegments() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let runs = Atomic(0)
            let (results, _) = try await connection.pipeline(
                segments: [["SELECT 1/0"], ["SELECT 2::int4"]], whileWaiting: { runs.wrappingAdd(1, ordering: .relaxed).newValue })
            #expect(runs.load(ordering: .relaxed) == 1)
            #expect((try? results[0][0].get()) == nil)
            #expect(try results[1][0].get()[0].decode(Int.self, at: 0) == 2)
            await connection.close()
        }
    }
}
