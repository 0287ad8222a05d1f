import CompassTestSupport
import Foundation
import Synchronization
import Testing

@testable import CompassRealtime
@testable import Postgres

/// The in-process subscription `compass listen` uses: the worker's fan-out for one channel.
@Suite("Realtime tail")
struct RealtimeTailTests {
    @Test func tailsOnlyWhatTheUserMayRead() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let tail = RealtimeTail(configuration: database.configuration, logger: TestDatabase.logger)
            let (events, received) = AsyncStream.makeStream(of: RealtimeJSON.self)
            let (ready, listening) = AsyncStream.makeStream(of: [RealtimeTableName].self)
            let writer = try await database.connect()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await tail.run(
                        claims: Demo.claims(Demo.sofia), binding: ["event": "INSERT", "schema": "public", "table": "interactions"],
                        onListening: { listening.yield($0) }, onEvent: { received.yield($0) })
                }
                defer { group.cancelAll() }
                var tables = ready.makeAsyncIterator()
                #expect(await tables.next() == [RealtimeTableName(schema: "public", table: "interactions")])
                for (athlete, content) in [(Demo.marcus, "not hers"), (Demo.sofia, "hers")] {
                    try await writer.query(
                        """
                        INSERT INTO public.interactions (family_unit_id, user_id, logged_by, type, direction, content)
                        VALUES (\(Demo.family(of: athlete))::uuid, \(athlete)::uuid, \(athlete)::uuid, 'email', 'outbound', \(content))
                        """)
                }
                var iterator = events.makeAsyncIterator()
                let first = await iterator.next()
                #expect(first?["record"]?["content"] == "hers")
                #expect(first?["type"] == "INSERT")
            }
            await writer.close()
        }
    }

    @Test func refusesAnUnknownTable() async throws {
        try await TestDatabase.with { database in
            let tail = RealtimeTail(configuration: database.configuration, logger: TestDatabase.logger)
            let problem = await #expect(throws: BindingProblem.self) {
                try await tail.run(claims: Demo.serviceRole, binding: ["event": "*", "schema": "public", "table": "nope"]) { _ in }
            }
            #expect(problem?.message.contains("does not exist") == true)
        }
    }
}
