import CompassTestSupport
import Foundation
import Testing

@testable import CompassRealtime
@testable import Postgres

@Suite("Fan-out against a real database: authorization, ordering, reconnects")
struct FanOutTests {
    static let allInteractions: RealtimeJSON = ["event": "*", "schema": "public", "table": "interactions"]

    @Test func userBNeverReceivesUserAsRows() async throws {
        try await FanOutHarness.with { harness in
            let sofia = try await harness.subscribe(Demo.claims(Demo.sofia), [Self.allInteractions])
            let marcus = try await harness.subscribe(Demo.claims(Demo.marcus), [Self.allInteractions])
            let sofiasRow = try await harness.insertInteraction(by: Demo.sofia)
            let marcussRow = try await harness.insertInteraction(by: Demo.marcus)

            let toSofia = try await sofia.changeEvents(expecting: 1)
            let toMarcus = try await marcus.changeEvents(expecting: 1)
            #expect(toSofia.map { $0.recordValue("id") } == [sofiasRow])
            #expect(toMarcus.map { $0.recordValue("id") } == [marcussRow])
        }
    }

    @Test func parentReceivesTheFamilysRowsOnly() async throws {
        let riveraFilter = "family_unit_id=eq.\(Demo.riveraFamily.uppercased())"
        try await FanOutHarness.with { harness in
            let maria = try await harness.subscribe(
                Demo.claims(Demo.maria),
                [["event": "INSERT", "schema": "public", "table": "interactions", "filter": .string(riveraFilter)]])
            let grace = try await harness.subscribe(Demo.claims(Demo.grace), [Self.allInteractions])
            let jordan = try await harness.subscribe(Demo.claims(Demo.jordan), [Self.allInteractions])
            let sofiasRow = try await harness.insertInteraction(by: Demo.sofia)
            let marcussRow = try await harness.insertInteraction(by: Demo.marcus)

            let toMaria = try await maria.changeEvents(expecting: 1)
            #expect(toMaria.map { $0.recordValue("id") } == [sofiasRow])
            Self.expectWellFormedInsert(toMaria.first)

            let toGrace = try await grace.changeEvents(expecting: 1)
            #expect(toGrace.map { $0.recordValue("id") } == [marcussRow])
            let toJordan = try await jordan.changeEvents(count: 1, timeout: .seconds(1))
            #expect(toJordan.isEmpty)
        }
    }

    /// Every field the clients require is there.
    static func expectWellFormedInsert(_ event: RealtimeJSON?) {
        let data = event?["data"]
        #expect(data?["type"] == "INSERT")
        #expect(data?["errors"] == RealtimeJSON.null)
        #expect(data?["commit_timestamp"]?.stringValue?.hasSuffix("Z") == true)
        let columns = data?["columns"]?.arrayValue ?? []
        #expect(columns.first?["name"] == "id")
        #expect(columns.first?["type"] == "uuid")
        #expect(event?["ids"]?.arrayValue?.count == 1)
    }

    @Test func enumFiltersFollowTheTypesDeclaredOrder() async throws {
        try await FanOutHarness.with { harness in
            try await harness.writer.executeScript(
                unsafeSQL: """
                    CREATE TYPE public.rt_mood AS ENUM ('sad', 'ok', 'happy');
                    ALTER TYPE public.rt_mood ADD VALUE 'meh' BEFORE 'ok';
                    CREATE TABLE public.rt_moods (id int8 PRIMARY KEY, mood public.rt_mood, code char(4));
                    GRANT SELECT ON public.rt_moods TO anon, authenticated, service_role;
                    SELECT realtime.enable('public.rt_moods');
                    """)
            let binding: (String) -> RealtimeJSON = {
                ["event": "INSERT", "schema": "public", "table": "rt_moods", "filter": .string($0)]
            }
            let above = try await harness.subscribe(Demo.serviceRole, [binding("mood=gt.meh")], topic: "realtime:above")
            let coded = try await harness.subscribe(Demo.serviceRole, [binding("code=eq.ab")], topic: "realtime:coded")
            try await harness.writer.query(
                "INSERT INTO public.rt_moods VALUES (1, 'sad', 'ab'), (2, 'meh', 'abc'), (3, 'ok', NULL), (4, 'happy', 'ab ')")
            let aboveIDs = try await above.changeEvents(expecting: 2).map { $0["data"]?["record"]?["id"] }
            #expect(aboveIDs == [.number("3"), .number("4")])
            let codedIDs = try await coded.changeEvents(expecting: 2).map { $0["data"]?["record"]?["id"] }
            #expect(codedIDs == [.number("1"), .number("4")])
        }
    }

    /// Joins read the catalog one at a time; many at once (missing tables among them) all get their answer.
    @Test func joinsResolvedTogetherEachGetTheirAnswer() async throws {
        try await FanOutHarness.with { harness in
            let results = await withTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let table = index.isMultiple(of: 2) ? "interactions" : "rt_missing_\(index)"
                        let result = await harness.catalog.resolve(
                            PostgresChangesBinding(requested: ["event": "*", "schema": "public", "table": .string(table)]))
                        if case .success = result { return (index, true) } else { return (index, false) }
                    }
                }
                return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
            #expect(results.count == 40)
            #expect(results.allSatisfy { $0.value == $0.key.isMultiple(of: 2) }, "\(results)")
        }
    }

    /// A join whose tables the cache holds does not wait behind another join's slow catalog read,
    /// and that read gives up after its timeout instead of holding every join's turn.
    @Test func aSlowCatalogReadHoldsOnlyTheJoinsThatNeedTheCatalog() async throws {
        try await FanOutHarness.with { harness in
            let catalog = harness.catalog
            let cached = PostgresChangesBinding(requested: ["event": "*", "schema": "public", "table": "interactions"])
            guard case .success = await catalog.resolve(cached) else { Issue.record("interactions did not resolve"); return }
            // Another session holds the catalog table every uncached read needs.
            let locker = try await harness.database.connect()
            try await locker.query("BEGIN")
            try await locker.query("LOCK TABLE realtime.enabled_tables IN ACCESS EXCLUSIVE MODE")
            let started = ContinuousClock.now
            let stuck = Task { await catalog.resolve(PostgresChangesBinding(requested: ["event": "*", "schema": "public", "table": "documents"])) }
            try await Task.sleep(for: .milliseconds(300))
            guard case .success = await catalog.resolve(cached) else { Issue.record("the cached table did not resolve"); return }
            #expect(ContinuousClock.now - started < .seconds(2), "the cached join did not wait for the stuck read")
            guard case .failure(let problem) = await stuck.value else { Issue.record("the stuck read did not fail"); return }
            #expect(problem.message.contains("database is unavailable"), "\(problem.message)")
            #expect(ContinuousClock.now - started < RealtimeCatalog.joinReadTimeout + .seconds(3))
            try await locker.query("ROLLBACK")
            await locker.close()
        }
    }

    @Test func filterValuesWrittenOtherwiseAreReadByPostgres() async throws {
        try await FanOutHarness.with { harness in
            try await harness.writer.executeScript(
                unsafeSQL: """
                    CREATE TYPE public.rt_level AS ENUM ('low', 'high');
                    CREATE TABLE public.rt_cast (id int8 PRIMARY KEY, d date, ts timestamptz, level public.rt_level, small int2);
                    SELECT realtime.enable('public.rt_cast');
                    """)
            func resolve(_ filter: String) async -> Result<[TableBinding], BindingProblem> {
                await harness.catalog.resolve(
                    PostgresChangesBinding(requested: ["event": "*", "schema": "public", "table": "rt_cast", "filter": .string(filter)]))
            }
            func operands(_ filter: String) async throws -> [RealtimeFilterValue] {
                try #require(try await resolve(filter).get().first?.filter?.operands)
            }
            // Spellings only Postgres reads: asked of Postgres, its answer used.
            #expect(try await operands("d=eq.Jan 2 2024") == [.date(19_724)])
            let eastern = try await operands("ts=lt.2024-01-01 00:00:00 America/New_York")
            #expect(eastern == [.timestamp(1_704_085_200_000_000)])  // 05:00 UTC
            #expect(try await operands("d=in.(2024-01-02, 20240103)") == [.date(19_724), .date(19_725)])
            // What Postgres refuses refuses the join, with Postgres's reason.
            for (filter, reason) in [
                ("level=eq.medium", "invalid input value for enum"), ("small=eq.40000", "out of range"),
                ("ts=eq.2024-01-01 00:00:00+16:00", "out of range"), ("d=eq.someday", "invalid input syntax"),
            ] {
                guard case .failure(let problem) = await resolve(filter) else {
                    Issue.record("\(filter) was accepted")
                    continue
                }
                #expect(problem.message.contains(reason), "\(filter): \(problem.message)")
            }
        }
    }

    @Test func columnLevelSecurityDeliversTheGrantedColumnsOnly() async throws {
        try await FanOutHarness.with { harness in
            // Supabase's column-level security: the table's SELECT revoked, some columns granted back.
            try await harness.writer.executeScript(
                unsafeSQL: """
                    CREATE TABLE public.rt_columns (id int8 PRIMARY KEY, owner uuid, secret text, title text);
                    ALTER TABLE public.rt_columns ENABLE ROW LEVEL SECURITY;
                    CREATE POLICY own ON public.rt_columns FOR SELECT TO authenticated USING (owner = auth.uid());
                    GRANT SELECT (id, owner, title) ON public.rt_columns TO authenticated;
                    GRANT SELECT ON public.rt_columns TO service_role;
                    SELECT realtime.enable('public.rt_columns');
                    """)
            let sofia = try await harness.subscribe(
                Demo.claims(Demo.sofia), [["event": "INSERT", "schema": "public", "table": "rt_columns"]])
            try await harness.writer.query(
                """
                INSERT INTO public.rt_columns VALUES
                    (1, \(Demo.marcus)::uuid, 'not hers', 'other'), (2, \(Demo.sofia)::uuid, 'hidden', 'hers')
                """)
            let events = try await sofia.changeEvents(expecting: 1)
            #expect(events.map { $0["data"]?["record"] } == [["id": .number("2"), "owner": .string(Demo.sofia), "title": "hers"]])
        }
    }

    @Test func channelsJoinedBeforeAColumnsTypeChangedStillMatch() async throws {
        try await FanOutHarness.with(tableLifetime: .milliseconds(200)) { harness in
            try await harness.writer.executeScript(
                unsafeSQL: """
                    CREATE TYPE public.rt_step AS ENUM ('a', 'c');
                    CREATE TABLE public.rt_retyped (id int8 PRIMARY KEY, x int4, s text, e public.rt_step);
                    GRANT SELECT ON public.rt_retyped TO service_role;
                    SELECT realtime.enable('public.rt_retyped');
                    """)
            let binding: (String) -> RealtimeJSON = {
                ["event": "INSERT", "schema": "public", "table": "rt_retyped", "filter": .string($0)]
            }
            var channels: [String: ClientOutbox] = [:]
            for filter in ["x=eq.5", "s=eq.Foo", "e=eq.c", "e=lt.c"] {
                channels[filter] = try await harness.subscribe(Demo.serviceRole, [binding(filter)], topic: "realtime:\(filter)")
            }
            // A migration while they are joined: the table's metadata is read again, theirs is not.
            try await harness.writer.executeScript(
                unsafeSQL: """
                    ALTER TABLE public.rt_retyped ALTER COLUMN x TYPE numeric, ALTER COLUMN s TYPE varchar(10);
                    ALTER TYPE public.rt_step ADD VALUE 'b' BEFORE 'c';
                    """)
            try await Task.sleep(for: .milliseconds(400))
            try await harness.writer.query("INSERT INTO public.rt_retyped VALUES (1, 5, 'Foo', 'a'), (2, 6, 'x', 'b'), (3, 7, 'y', 'c')")
            func ids(_ filter: String, _ count: Int) async throws -> [RealtimeJSON?] {
                try await #require(channels[filter]).changeEvents(expecting: count).map { $0["data"]?["record"]?["id"] }
            }
            #expect(try await ids("x=eq.5", 1) == [.number("1")])
            #expect(try await ids("s=eq.Foo", 1) == [.number("1")])
            #expect(try await ids("e=eq.c", 1) == [.number("3")])
            #expect(try await ids("e=lt.c", 2) == [.number("1"), .number("2")])
        }
    }

    @Test func enumFiltersSurviveTheLabelsBeingRenumbered() async throws {
        try await FanOutHarness.with(tableLifetime: .milliseconds(200)) { harness in
            try await harness.writer.executeScript(
                unsafeSQL: """
                    CREATE TYPE public.rt_grade AS ENUM ('a', 'c');
                    CREATE TABLE public.rt_graded (id int8 PRIMARY KEY, g public.rt_grade);
                    GRANT SELECT ON public.rt_graded TO service_role;
                    SELECT realtime.enable('public.rt_graded');
                    """)
            let binding: (String) -> RealtimeJSON = {
                ["event": "INSERT", "schema": "public", "table": "rt_graded", "filter": .string($0)]
            }
            let equal = try await harness.subscribe(Demo.serviceRole, [binding("g=eq.c")], topic: "realtime:eq")
            let other = try await harness.subscribe(Demo.serviceRole, [binding("g=neq.c")], topic: "realtime:neq")
            // Thirty labels squeezed in before 'c': Postgres runs out of room and renumbers them all.
            let labels = (1...30).map { "ALTER TYPE public.rt_grade ADD VALUE 'b\($0)' BEFORE 'c';" }
            try await harness.writer.executeScript(unsafeSQL: labels.joined(separator: "\n"))
            let renumbered = try await harness.writer.query(
                "SELECT enumsortorder::float8 FROM pg_enum WHERE enumtypid = 'public.rt_grade'::regtype AND enumlabel = 'c'")
            #expect(try renumbered[0].decode(Double.self, at: 0) != 2, "Postgres renumbered the labels")
            try await Task.sleep(for: .milliseconds(400))
            try await harness.writer.query("INSERT INTO public.rt_graded VALUES (1, 'c'), (2, 'b7'), (3, 'a')")
            #expect(try await equal.changeEvents(expecting: 1).map { $0["data"]?["record"]?["id"] } == [.number("1")])
            #expect(try await other.changeEvents(expecting: 2).map { $0["data"]?["record"]?["id"] } == [.number("2"), .number("3")])
        }
    }

    @Test func aReplicaIdentityChangedAfterTheTableWasReadIsSeen() async throws {
        try await FanOutHarness.with(tableLifetime: .milliseconds(200)) { harness in
            try await harness.writer.executeScript(
                unsafeSQL: """
                    CREATE TABLE public.rt_ident (id int8 PRIMARY KEY, n int4);
                    GRANT SELECT ON public.rt_ident TO anon, authenticated, service_role;
                    SELECT realtime.enable('public.rt_ident');
                    INSERT INTO public.rt_ident VALUES (1, 5), (2, 5);
                    """)
            let deletes = try await harness.subscribe(
                Demo.serviceRole, [["event": "DELETE", "schema": "public", "table": "rt_ident", "filter": "n=eq.5"]])
            // The default identity keeps only the key of a deleted row: a filter on `n` cannot pass.
            try await harness.writer.query("DELETE FROM public.rt_ident WHERE id = 1")
            #expect(try await deletes.changeEvents(count: 1, timeout: .seconds(2)).isEmpty)
            // A migration makes it FULL while the worker runs: the next delete is filtered on its old row.
            try await harness.writer.query("ALTER TABLE public.rt_ident REPLICA IDENTITY FULL")
            try await Task.sleep(for: .milliseconds(400))
            try await harness.writer.query("DELETE FROM public.rt_ident WHERE id = 2")
            let events = try await deletes.changeEvents(expecting: 1)
            #expect(events.map { $0["data"]?["old_record"]?["n"] } == [.number("5")])
        }
    }

    @Test func outOfOrderCommitsAreEachDeliveredOnce() async throws {
        try await FanOutHarness.with { harness in
            let watcher = try await harness.subscribe(Demo.serviceRole, [Self.allInteractions])
            let early = try await harness.database.connect()
            let late = try await harness.database.connect()
            try await early.query("BEGIN")
            let firstID = try await harness.insertInteraction(by: Demo.sofia, content: "recorded first", on: early)
            try await late.query("BEGIN")
            let secondID = try await harness.insertInteraction(by: Demo.sofia, content: "recorded second", on: late)
            try await late.query("COMMIT")
            // Let a few polls pass while the earlier id is still uncommitted.
            let beforeCommit = try await watcher.changeEvents(count: 2, timeout: .milliseconds(1500))
            #expect(beforeCommit.map { $0.recordValue("id") } == [secondID])
            try await early.query("COMMIT")
            let afterCommit = try await watcher.changeEvents(expecting: 1)
            #expect(afterCommit.map { $0.recordValue("id") } == [firstID])
            await early.close()
            await late.close()
        }
    }

    @Test func killingTheListenConnectionLosesAndDuplicatesNothing() async throws {
        try await FanOutHarness.with { harness in
            let watcher = try await harness.subscribe(Demo.claims(Demo.sofia), [Self.allInteractions])
            let inserter = try await harness.database.connect()
            let total = 150
            async let inserted: [String] = {
                var ids: [String] = []
                for index in 0..<total {
                    ids.append(try await harness.insertInteraction(by: Demo.sofia, content: "burst \(index)", on: inserter))
                    if index % 10 == 0 { try await Task.sleep(for: .milliseconds(15)) }
                }
                return ids
            }()
            var kills = 0
            for _ in 0..<4 {
                try await Task.sleep(for: .milliseconds(250))
                kills += try await harness.killListenConnection()
            }
            let ids = try await inserted
            let events = try await watcher.changeEvents(expecting: total)
            let received = events.compactMap { $0.recordValue("id") }
            #expect(kills >= 2)
            #expect(received.count == total)
            #expect(Set(received) == Set(ids))
            #expect(received == ids)  // one writer: commit order is insertion order
            harness.metrics.refreshGauges(counts: harness.registry.counts)
            let metrics = harness.metrics.registry.emitToString()
            #expect((metricValue(metrics, "realtime_database_reconnects_total") ?? 0) >= 1)
            await inserter.close()
        }
    }

    @Test("a change to a table no channel watches is passed over unparsed; once watched it is delivered")
    func changesNobodyWatchesAreNotParsed() async throws {
        try await FanOutHarness.with { harness in
            func counters() -> (received: Double, unwatched: Double) {
                let text = harness.metrics.registry.emitToString()
                return (metricValue(text, "realtime_changes_received_total") ?? 0, metricValue(text, "realtime_changes_unwatched_total") ?? 0)
            }
            // Someone watches documents only: interactions are nobody's.
            let documents = try await harness.subscribe(
                Demo.claims(Demo.sofia), [["event": "*", "schema": "public", "table": "documents"]], topic: "realtime:docs")
            for index in 0..<3 { try await harness.insertInteraction(by: Demo.sofia, content: "unwatched \(index)") }
            let deadline = ContinuousClock.now + .seconds(10)
            while counters().received < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
            #expect(counters().received == 3)
            #expect(counters().unwatched == 3)
            #expect(documents.queuedCount == 0)
            let interactions = try await harness.subscribe(Demo.claims(Demo.sofia), [Self.allInteractions])
            let id = try await harness.insertInteraction(by: Demo.sofia, content: "watched")
            let events = try await interactions.changeEvents(expecting: 1)
            #expect(events.compactMap { $0.recordValue("id") } == [id])
            #expect(counters().unwatched == 3)
        }
    }

    @Test func twoWorkersOnOneDatabaseEachDeliverEveryChangeOnce() async throws {
        try await FanOutHarness.with { first in
            try await first.withSecondWorker { second in
                let onFirst = try await first.subscribe(Demo.claims(Demo.sofia), [Self.allInteractions])
                let onSecond = try await second.subscribe(Demo.claims(Demo.sofia), [Self.allInteractions])
                let marcusOnSecond = try await second.subscribe(Demo.claims(Demo.marcus), [Self.allInteractions])
                var ids: [String] = []
                for index in 0..<20 {
                    ids.append(try await first.insertInteraction(by: Demo.sofia, content: "shared \(index)"))
                    if index == 10 { try await second.killListenConnection() }
                }
                let toFirst = try await onFirst.changeEvents(expecting: ids.count)
                let toSecond = try await onSecond.changeEvents(expecting: ids.count)
                #expect(toFirst.compactMap { $0.recordValue("id") } == ids)
                #expect(toSecond.compactMap { $0.recordValue("id") } == ids)
                #expect(try await marcusOnSecond.changeEvents(count: 1, timeout: .milliseconds(300)).isEmpty)
            }
        }
    }

    @Test func backlogsLargerThanAPageArriveOnceInOrder() async throws {
        try await FanOutHarness.with(pageSize: 7) { harness in
            let watcher = try await harness.subscribe(Demo.serviceRole, [Self.allInteractions])
            var ids: [String] = []
            try await harness.writer.query("BEGIN")
            for index in 0..<30 { ids.append(try await harness.insertInteraction(by: Demo.marcus, content: "tx \(index)")) }
            try await harness.writer.query("COMMIT")
            for index in 0..<12 { ids.append(try await harness.insertInteraction(by: Demo.sofia, content: "single \(index)")) }
            let received = try await watcher.changeEvents(expecting: ids.count).compactMap { $0.recordValue("id") }
            #expect(received == ids)
        }
    }

    @Test func oversizedRowArrivesWhole() async throws {
        try await FanOutHarness.with { harness in
            let watcher = try await harness.subscribe(Demo.claims(Demo.sofia), [Self.allInteractions])
            let content = String(repeating: "0123456789abcdef", count: 2_000)  // 32 KB, four times NOTIFY's limit
            let id = try await harness.insertInteraction(by: Demo.sofia, content: content)
            let events = try await watcher.changeEvents(count: 1)
            #expect(events.first?.recordValue("id") == id)
            #expect(events.first?.recordValue("content") == content)
        }
    }

    @Test func filtersUpdatesAndTrimmedDeletes() async throws {
        try await FanOutHarness.with { harness in
            let id = try await harness.insertInteraction(by: Demo.sofia, content: "before")
            let updates = try await harness.subscribe(
                Demo.claims(Demo.sofia),
                [["event": "UPDATE", "schema": "public", "table": "interactions", "filter": "content=eq.after"]])
            let deletes = try await harness.subscribe(
                Demo.claims(Demo.marcus), [["event": "DELETE", "schema": "public", "table": "interactions"]])
            try await harness.writer.query("UPDATE public.interactions SET content = 'other' WHERE id = \(id)::uuid")
            try await harness.writer.query("UPDATE public.interactions SET content = 'after' WHERE id = \(id)::uuid")
            // Visibility is checked against the row as it is then, so let the update arrive first.
            let updated = try await updates.changeEvents(expecting: 1)
            #expect(updated.count == 1)
            #expect(updated.first?.recordValue("content") == "after")
            #expect(updated.first?["data"]?["old_record"] == ["id": .string(id)])
            try await harness.writer.query("DELETE FROM public.interactions WHERE id = \(id)::uuid")

            // DELETE cannot be checked against a row that is gone: it goes out, cut to the key.
            let deleted = try await deletes.changeEvents(count: 1)
            #expect(deleted.first?["data"]?["type"] == "DELETE")
            #expect(deleted.first?["data"]?["old_record"] == ["id": .string(id)])
            #expect(deleted.first?["data"]?["record"] == nil)
        }
    }

    @Test func bothVisibilityPathsAgree() async throws {
        try await FanOutHarness.with { harness in
            let interactions = try #require(
                try await harness.catalog.metadata(for: RealtimeTableName(schema: "public", table: "interactions")))
            let rows = try await harness.writer.query(
                "SELECT id::text FROM public.interactions ORDER BY user_id, id LIMIT 40")
            let keys = try rows.map { [try $0.decode(String.self, at: 0)] } + [["00000000-0000-4000-8000-000000000000"]]
            let checks = [Demo.sofia, Demo.marcus, Demo.maria, Demo.grace, Demo.jordan].map {
                RealtimeAuthorizer.Check(table: interactions, key: Demo.claims($0).authorizationKey, rowKeys: keys)
            } + [
                RealtimeAuthorizer.Check(
                    table: interactions, key: .init(role: .anon, claimsJSON: #"{"role":"anon"}"#), rowKeys: keys)
            ]
            let authorizer = RealtimeAuthorizer(database: harness.realtime, metrics: RealtimeMetrics())
            let together = try await authorizer.visibleRowsInOneStatement(checks)
            let separately = try await authorizer.visibleRowsBySegment(checks)
            #expect(together == separately)
            #expect(together[0].isEmpty == false)  // Sofia sees her own
            #expect(together[4].isEmpty)  // Jordan has no family and no interactions
            #expect(together[5].isEmpty)  // anon sees nothing
            #expect(together[2].isSuperset(of: together[0]))  // her mother sees what Sofia sees
        }
    }

    /// Many subscribers of a table whose policy reads only the claims (`activities`:
    /// `user_id = auth.uid()`) take the batched query; claims go as objects, or as a string
    /// when the text is not one object. Both must answer what each group's own probe does.
    @Test func manySubscribersTakeTheBatchAndAgreeWithTheProbes() async throws {
        try await FanOutHarness.with { harness in
            let activities = try #require(
                try await harness.catalog.metadata(for: RealtimeTableName(schema: "public", table: "activities")))
            let rows = try await harness.writer.query("SELECT id::text, user_id::text FROM public.activities ORDER BY id LIMIT 30")
            let keys = try rows.map { [try $0.decode(String.self, at: 0)] }
            let owners = Set(try rows.map { try $0.decode(String.self, at: 1) })
            let users = Array(owners) + [Demo.maria, Demo.jordan] + (0..<8).map { _ in UUID().uuidString.lowercased() }
            var checks = users.map {
                RealtimeAuthorizer.Check(table: activities, key: Demo.claims($0).authorizationKey, rowKeys: keys)
            }
            let metrics = RealtimeMetrics()
            let authorizer = RealtimeAuthorizer(database: harness.realtime, metrics: metrics)
            let together = try await authorizer.visibleRowsInOneStatement(checks)
            #expect(together == (try await authorizer.visibleRowsBySegment(checks)))
            #expect(together.prefix(owners.count).allSatisfy { !$0.isEmpty })  // each owner sees their own
            #expect(together.suffix(8).allSatisfy { $0.isEmpty })  // strangers see nothing

            // Claims that are not one object: sent as a string, which Postgres cannot read as
            // claims; the call falls back to the groups one by one, and that group sees nothing.
            let owner = try #require(owners.first)
            checks.append(
                RealtimeAuthorizer.Check(
                    table: activities,
                    key: .init(role: .authenticated, claimsJSON: #"{"role":"authenticated"},"claims":{"sub":"\#(owner)"}"#),
                    rowKeys: keys))
            let withFallback = try await authorizer.visibleRows(checks)
            #expect(withFallback == (try await authorizer.visibleRowsBySegment(checks)))
            #expect(withFallback.last?.isEmpty == true)
            var emitted: [UInt8] = []
            metrics.registry.emit(into: &emitted)
            #expect(String(decoding: emitted, as: UTF8.self).contains("realtime_visibility_checks_count 2"))
        }
    }

    @Test func invalidBindingsAreRefusedWithReasons() async throws {
        try await FanOutHarness.with { harness in
            func problem(_ binding: RealtimeJSON) async -> String? {
                if case .failure(let problem) = await harness.catalog.resolve(PostgresChangesBinding(requested: binding)) {
                    return problem.message
                }
                return nil
            }
            #expect(await problem(["event": "*", "schema": "public", "table": "nope"])?.contains("does not exist") == true)
            #expect(await problem(["event": "*", "schema": "public", "table": "schools"])?.contains("not enabled") == true)
            // Enabled a moment later: the next join takes it, without waiting for the cache to expire.
            try await harness.writer.query("SELECT realtime.enable('public.schools')")
            #expect(await problem(["event": "*", "schema": "public", "table": "schools"]) == nil)
            #expect(
                await problem(["event": "*", "schema": "public", "table": "interactions", "filter": "bogus=eq.1"])?
                    .contains("column") == true)
            #expect(
                await problem(["event": "*", "schema": "public", "table": "interactions", "filter": "user_id=eq.42"])?
                    .contains("not valid: invalid input syntax for type uuid") == true)
            #expect(await problem(["event": "*", "schema": "public", "table": "interactions", "filter": "type=like.e*"]) != nil)
            #expect(await problem(["event": "*", "schema": "public"]) == nil)
        }
    }
}
