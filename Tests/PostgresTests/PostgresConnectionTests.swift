import CompassTestSupport
import Foundation
import Testing

@testable import Postgres

@Suite("PostgresConnection against a real server")
struct PostgresConnectionTests {
    @Test func decodesEveryTypeAndNulls() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let id = UUID()
            let rows = try await connection.query(
                """
                SELECT 'hello'::text, NULL::text, \(id)::uuid, NULL::uuid, 7::int2, 70000::int4, 9000000000::int8,
                       true, NULL::bool, 1.5::float8, 12.345::numeric, NULL::numeric,
                       '2025-05-04 11:12:33.47912+02'::timestamptz, NULL::timestamptz, '2025-05-04'::date,
                       '{"a": [1, 2]}'::jsonb, ARRAY['a', 'b c', NULL]::text[], ARRAY[\(id)::uuid]::uuid[], NULL::text[]
                """)
            let row = try #require(rows.first)
            #expect(try row.decode(String.self, at: 0) == "hello")
            #expect(try row.decode(String?.self, at: 1) == nil)
            #expect(try row.decode(UUID.self, at: 2) == id)
            #expect(try row.decode(UUID?.self, at: 3) == nil)
            #expect(try row.decode(Int16.self, at: 4) == 7)
            #expect(try row.decode(Int32.self, at: 5) == 70000)
            #expect(try row.decode(Int64.self, at: 6) == 9_000_000_000)
            #expect(try row.decode(Bool.self, at: 7) == true)
            #expect(try row.decode(Bool?.self, at: 8) == nil)
            #expect(try row.decode(Double.self, at: 9) == 1.5)
            #expect(try row.decode(Decimal.self, at: 10) == Decimal(string: "12.345"))
            #expect(try row.decode(Decimal?.self, at: 11) == nil)
            let timestamp = try row.decode(Date.self, at: 12)
            #expect(abs(timestamp.timeIntervalSince1970 - 1_746_349_953.47912) < 0.000_001)
            #expect(try row.decode(Date?.self, at: 13) == nil)
            #expect(try row.decode(PostgresDate.self, at: 14) == PostgresDate(year: 2025, month: 5, day: 4))
            struct Payload: Decodable, Equatable { var a: [Int] }
            #expect(try row.decode(PostgresJSON.self, at: 15).decode(Payload.self) == Payload(a: [1, 2]))
            #expect(try row.decode([String?].self, at: 16) == ["a", "b c", nil])
            #expect(try row.decode([UUID].self, at: 17) == [id])
            #expect(try row.decode([String]?.self, at: 18) == nil)
            // Dates and timestamps Postgres writes with an era or five-digit years decode too.
            let far = try #require(try await connection.query(
                "SELECT '0044-03-15 BC'::date, '0044-03-15 12:00:00+00 BC'::timestamptz, '12345-06-07'::date, 'infinity'::date").first)
            let idesOfMarch = -63_517_824_000.0  // 44 BC (the year -43), March 15, midnight UTC (Postgres: extract(epoch …))
            #expect(try far.decode(Date.self, at: 0).timeIntervalSince1970 == idesOfMarch)
            #expect(try far.decode(Date.self, at: 1).timeIntervalSince1970 == idesOfMarch + 43_200)
            #expect(try far.decode(Date.self, at: 2).timeIntervalSince1970 == 327_416_947_200)
            #expect(try far.decode(Date.self, at: 3) == .distantFuture)
            // …and a Date before year 1 binds as Postgres reads it (`0001-12-31T…Z BC`; it has no year 0).
            let oneBC = Date(timeIntervalSince1970: -62_135_683_200)
            let bound = try await connection.query("SELECT \(oneBC)::timestamptz = '0001-12-31 00:00:00+00 BC'::timestamptz")
            #expect(try bound[0].decode(Bool.self, at: 0))
            await connection.close()
        }
    }

    @Test func bindsRoundTripThroughTheServer() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let now = Date(timeIntervalSince1970: 1_746_349_953.479_12)
            let ids = [UUID(), UUID()]
            let text = "it's \"quoted\" \\ and ünïcödé"
            let rows = try await connection.query(
                "SELECT \(text)::text, \(now)::timestamptz, \(ids)::uuid[], \(["x,y", "{z}"])::text[], \(3.25)::float8, \(false)::bool")
            let (echoedText, echoedDate, echoedIDs, echoedArray, echoedDouble, echoedBool) = try rows[0].decode(
                (String, Date, [UUID], [String], Double, Bool).self)
            #expect(echoedText == text)
            #expect(abs(echoedDate.timeIntervalSince(now)) < 0.000_001)
            #expect(echoedIDs == ids)
            #expect(echoedArray == ["x,y", "{z}"])
            #expect(echoedDouble == 3.25)
            #expect(echoedBool == false)
            await connection.close()
        }
    }

    @Test func decodingErrorNamesColumnAndTypes() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let rows = try await connection.query("SELECT 'abc'::text AS nickname, NULL::int4 AS age")
            #expect {
                _ = try rows[0].decode(UUID.self, column: "nickname")
            } throws: { error in
                let error = try #require(error as? PostgresDecodingError)
                return error.column == "nickname" && error.swiftType == "UUID" && error.postgresType == "text"
            }
            #expect {
                _ = try rows[0].decode(Int.self, column: "age")
            } throws: { error in
                (error as? PostgresDecodingError)?.description.contains("int4") == true
            }
            await connection.close()
        }
    }

    @Test func uniqueViolationCarriesSQLStateAndHidesValues() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            try await connection.query("CREATE TEMP TABLE people (email text CONSTRAINT people_email_key UNIQUE)")
            try await connection.query("INSERT INTO people VALUES (\("pat@example.com"))")
            let error = await #expect(throws: PostgresError.self) {
                try await connection.query("INSERT INTO people VALUES (\("pat@example.com"))")
            }
            #expect(error?.sqlState == .uniqueViolation)
            #expect(error?.constraint == "people_email_key")
            #expect(error?.table == "people")
            #expect(error?.query == "INSERT INTO people VALUES ($1)")
            #expect(error?.file.hasSuffix("PostgresConnectionTests.swift") == true)
            #expect(error?.description.contains("pat@example.com") == false)
            await connection.close()
        }
    }

    @Test func pipelineReportsTheFailedStatementAndAbortsTheRest() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let before = await connection.roundTrips
            let results = try await connection.pipeline([
                "SELECT 1::int4",
                "SELECT 1 / 0",
                "SELECT 3::int4",
            ])
            #expect(await connection.roundTrips == before + 1)
            #expect(try results[0].get()[0].decode(Int.self, at: 0) == 1)
            guard case .failure(let failed) = results[1], case .failure(let aborted) = results[2] else {
                Issue.record("statements 1 and 2 should fail")
                return
            }
            #expect(failed.sqlState == SQLState(rawValue: "22012"))
            #expect(failed.statementIndex == 1)
            #expect(aborted.code == .pipelineAborted)
            #expect(aborted.statementIndex == 2)
            #expect(aborted.failedStatementIndex == 1)
            // The connection is usable afterwards, in and out of pipeline mode.
            #expect(try await connection.pipelineResults(["SELECT 4::int4", "SELECT 5::int4"]).count == 2)
            #expect(try await connection.query("SELECT 6::int4")[0].decode(Int.self, at: 0) == 6)
            await connection.close()
        }
    }

    @Test func segmentsFailIndependentlyAndScopeLocalSettings() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let before = await connection.roundTrips
            let claims = #"{"sub":"a1000000-0000-4000-8000-000000000003","role":"authenticated"}"#
            let segments = try await connection.pipeline(segments: [
                [
                    "SELECT set_config('request.jwt.claims', \(claims), true)",
                    "SELECT current_setting('request.jwt.claims', true)",
                ],
                ["SELECT 1 / 0", "SELECT 2::int4"],
                ["SELECT coalesce(current_setting('request.jwt.claims', true), '')"],
            ])
            #expect(await connection.roundTrips == before + 1)
            // A local setting lasts for its segment (one implicit transaction) only.
            #expect(try segments[0][1].get()[0].decode(String.self, at: 0) == claims)
            #expect(try segments[2][0].get()[0].decode(String.self, at: 0) == "")
            guard case .failure(let failed) = segments[1][0], case .failure(let aborted) = segments[1][1] else {
                Issue.record("the middle segment should fail")
                return
            }
            #expect(failed.statementIndex == 0)
            #expect(aborted.failedStatementIndex == 0)
            #expect(await connection.isReusable)
            await connection.close()
        }
    }

    @Test func transactionRollsBackOnThrowAndSavepointsNest() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            try await connection.query("CREATE TEMP TABLE notes (body text)")
            struct Boom: Error {}
            await #expect(throws: Boom.self) {
                try await connection.withTransaction { tx in
                    try await tx.query("INSERT INTO notes VALUES (\("lost"))")
                    throw Boom()
                }
            }
            try await connection.withTransaction { tx in
                try await tx.query("INSERT INTO notes VALUES (\("kept"))")
                try? await tx.withSavepoint { sp in
                    try await sp.query("INSERT INTO notes VALUES (\("inner"))")
                    throw Boom()
                }
            }
            let bodies = try await connection.query("SELECT body FROM notes ORDER BY body").map { try $0.decode(String.self, at: 0) }
            #expect(bodies == ["kept"])
            #expect(await connection.isReusable)
            await connection.close()
        }
    }

    @Test func cancellingATaskCancelsTheRunningQuery() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let started = ContinuousClock.now
            let task = Task { try await connection.query("SELECT pg_sleep(30)") }
            try await Task.sleep(for: .milliseconds(300))
            task.cancel()
            let error = await #expect(throws: PostgresError.self) { try await task.value }
            #expect(error?.sqlState == .queryCanceled)
            #expect(ContinuousClock.now - started < .seconds(10))
            #expect(try await connection.query("SELECT 1::int4").count == 1)
            await connection.close()
        }
    }

    @Test func theScopeStatementAppliesTheTimeoutItIsGivenAndNumbersItsSettings() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            let user = try await connection.query("SELECT current_user::text")[0].decode(String.self, at: 0)
            let session = try await connection.query("SHOW statement_timeout")[0].decode(String.self, at: 0)
            let cases: [(PostgresQuery.RoleTimeout, String)] = [(.known("1234ms"), "1234ms"), (.known(nil), session), (.lookedUp, session)]
            for (timeout, expected) in cases {
                let scope = PostgresQuery.requestScope(
                    role: user, claimsJSON: #"{"sub":"x"}"#, timeout: timeout, settings: [("request.path", "/schools")])
                let results = try await connection.pipeline([
                    "BEGIN", scope,
                    "SELECT current_setting('statement_timeout'), current_setting('request.path'), current_setting('request.jwt.claims')",
                    "COMMIT",
                ])
                let row = try results[2].get()[0]
                #expect(try row.decode(String.self, at: 0) == expected)
                #expect(try row.decode(String.self, at: 1) == "/schools")
                #expect(try row.decode(String.self, at: 2) == #"{"sub":"x"}"#)
            }
            await connection.close()
        }
    }

    @Test func callersSharingOneConnectionTakeTurnsAndEachGetsItsOwnAnswer() async throws {
        try await TestDatabase.with { database in
            let connection = try await database.connect()
            // Each statement waits on the server, so a caller that did not wait its turn would send
            // its statement into the middle of another's exchange.
            let answers = try await withThrowingTaskGroup(of: (Int32, Int32).self) { group in
                for value in Int32(0)..<20 {
                    group.addTask {
                        let rows = try await connection.query("SELECT \(value)::int4 FROM pg_sleep(0.01)")
                        return (value, try rows[0].decode(Int32.self, at: 0))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.count == 20)
            #expect(answers.allSatisfy { $0.0 == $0.1 })
            await connection.close()
            let error = await #expect(throws: PostgresError.self) { try await connection.query("SELECT 1") }
            #expect(error?.code == .closed)
        }
    }

    @Test func manyConnectionsWaitingAtOnceAreEachWokenByTheirOwnAnswer() async throws {
        try await TestDatabase.with { database in
            var opened: [PostgresConnection] = []
            for _ in 0..<12 { opened.append(try await database.connect()) }
            let connections = opened
            let answers = try await withThrowingTaskGroup(of: (Int, Int32, Int32).self) { group in
                for (index, connection) in connections.enumerated() {
                    group.addTask {
                        // Later connections answer sooner: wake-ups must reach the right waiter.
                        let pause = Double(connections.count - index) * 0.02
                        let rows = try await connection.query("SELECT pg_backend_pid(), \(Int32(index))::int4 FROM pg_sleep(\(pause))")
                        return (index, try rows[0].decode(Int32.self, at: 0), try rows[0].decode(Int32.self, at: 1))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            for (index, pid, echoed) in answers {
                #expect(pid == (await connections[index].backendPID))
                #expect(echoed == Int32(index))
            }
            for connection in connections { await connection.close() }
        }
    }

    @Test func unreachableServerErrorNamesHostAndUserNotPassword() async throws {
        let configuration = try PostgresConfiguration(url: "postgresql://alice:hunter2@127.0.0.1:1/compass?connect_timeout=2")
        let error = await #expect(throws: PostgresError.self) {
            _ = try await PostgresConnection.connect(to: configuration, logger: TestDatabase.logger)
        }
        #expect(error?.code == .connectionFailed)
        #expect(error?.description.contains("127.0.0.1:1") == true)
        #expect(error?.description.contains("alice") == true)
        #expect(error?.description.contains("hunter2") == false)
        #expect(error?.description.contains("\n") == false)
    }
}
