import CompassTestSupport
import Foundation
import Postgres
import Testing

/// Runs the built `compass` binary against a fresh demo database.
@Suite("compass binary end to end")
struct EndToEndTests {
    static let sofia = "a1000000-0000-4000-8000-000000000003"
    static let maria = "a1000000-0000-4000-8000-000000000001"
    static let grace = "a1000000-0000-4000-8000-000000000004"
    static let chenFamily = "f1000000-0000-4000-8000-000000000002"

    typealias Run = CompassBinary.Run

    /// Runs `compass arguments --database-url <db>` (see ``CompassBinary``).
    static func compass(_ arguments: [String], database: TestDatabase?) async throws -> Run {
        try await CompassBinary.run(arguments, database: database)
    }

    @Test func feedJSONHasTheSpecShape() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let run = try await Self.compass(["feed", "--user", Self.sofia, "--json"], database: database)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.isEmpty)
            let json = try run.json()
            #expect(Set(json.keys) == ["events", "page", "totalPages", "total"])
            #expect(json["total"] as? Int == 31)
            #expect(json["totalPages"] as? Int == 2)
            let events = try #require(json["events"] as? [[String: Any]])
            #expect(events.count == 20)
            let first = try #require(events.first)
            for key in ["id", "type", "timestamp", "title", "description", "icon", "entityType", "entityId", "entityName",
                        "metadata", "isClickable", "clickUrl"] {
                #expect(first.keys.contains(key), "missing \(key)")
            }
            let timestamp = try #require(first["timestamp"] as? String)
            #expect(timestamp.hasSuffix("+00:00"))
        }
    }

    @Test func everyCommandRunsAgainstTheDemoData() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let lines: [[String]] = [
                ["migrate", "--status"],
                ["feed", "--user", Self.sofia],
                ["feed", "--user", Self.sofia, "--type", "document_upload", "--range", "quarter"],
                ["feed", "--user", Self.sofia, "--widget"],
                ["timeline", "--user", Self.sofia, "--range", "12", "--hide", "status_change"],
                ["interactions", "--user", Self.sofia],
                ["interactions", "--user", Self.grace, "--parent", "--family", Self.chenFamily, "--days", "30"],
                ["notifications", "list", "--user", Self.sofia],
                ["notifications", "unread", "--user", Self.sofia],
                ["family-activity", "--user", Self.maria, "--limit", "3"],
            ]
            for line in lines {
                let table = try await Self.compass(line, database: database)
                #expect(table.status == 0, "\(line): \(table.stderr)")
                #expect(!table.stdout.isEmpty, "\(line)")
                let json = try await Self.compass(line + ["--json"], database: database)
                #expect(json.status == 0, "\(line) --json: \(json.stderr)")
                #expect(throws: Never.self, "\(line) --json is one JSON document") { _ = try json.json() }
            }
        }
    }

    @Test func notificationChangesReturnTheUnreadCount() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let before = try await Self.compass(["notifications", "unread", "--user", Self.sofia, "--json"], database: database)
            let unread = try #require(try before.json()["unreadCount"] as? Int)
            #expect(unread > 0)
            let readAll = try await Self.compass(["notifications", "read-all", "--user", Self.sofia, "--json"], database: database)
            #expect(try readAll.json()["changed"] as? Int == unread)
            #expect(try readAll.json()["unreadCount"] as? Int == 0)
            let cleared = try await Self.compass(["notifications", "clear", "--user", Self.sofia, "--json"], database: database)
            #expect(try cleared.json()["unreadCount"] as? Int == 0)
            let list = try await Self.compass(["notifications", "list", "--user", Self.sofia, "--json"], database: database)
            #expect((try list.json()["notifications"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func familyActivityCursorWalksEveryPage() async throws {
        try await TestDatabase.with(demoData: true) { database in
            var cursor: String?
            var ids: [String] = []
            repeat {
                let run = try await Self.compass(
                    ["family-activity", "--user", Self.maria, "--limit", "2", "--json"] + (cursor.map { ["--cursor", $0] } ?? []),
                    database: database)
                #expect(run.status == 0, "\(run.stderr)")
                let json = try run.json()
                ids += (json["activities"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                cursor = json["nextCursor"] as? String
            } while cursor != nil
            #expect(ids.count == 5)
            #expect(Set(ids).count == 5)
        }
    }

    @Test func badInputExitsTwoWithOneLineAndNoOutput() async throws {
        try await TestDatabase.with(demoData: true) { database in
            let cases: [([String], String)] = [
                (["feed", "--user", "not-a-uuid"], "not-a-uuid"),
                (["feed", "--user", Self.sofia, "--type", "likes"], "likes"),
                (["feed", "--user", Self.sofia, "--page", "0"], "--page"),
                (["family-activity", "--user", Self.maria, "--limit", "-1"], "-1"),
                (["family-activity", "--user", Self.maria, "--cursor", "AAAA"], "AAAA"),
                (["feed", "--user", "a1000000-0000-4000-8000-000000000099"], "a1000000-0000-4000-8000-000000000099"),
                (["interactions", "--user", Self.maria, "--parent", "--family", Self.chenFamily], Self.chenFamily),
                (["notifications", "delete", "00000000-0000-4000-8000-000000000000", "--user", Self.sofia],
                 "00000000-0000-4000-8000-000000000000"),
            ]
            for (line, named) in cases {
                let run = try await Self.compass(line, database: database)
                #expect(run.status == 2, "\(line): \(run.stderr)")
                #expect(run.stdout.isEmpty, "\(line)")
                #expect(run.stderr.split(separator: "\n").count == 1, "\(line): \(run.stderr)")
                #expect(run.stderr.contains(named), "\(line): \(run.stderr)")
            }
        }
    }

    @Test func anUnreachableDatabaseExitsOneNamingTheServer() async throws {
        let run = try await Self.compass(
            ["feed", "--user", Self.sofia, "--database-url", "postgresql://nobody:secret@127.0.0.1:1/x"], database: nil)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: could not connect to PostgreSQL at 127.0.0.1:1 as user \"nobody\""))
        #expect(!run.stderr.contains("secret"))
        #expect(run.stdout.isEmpty)
    }

    @Test func aMissingDatabaseURLExitsTwo() async throws {
        let run = try await Self.compass(["feed", "--user", Self.sofia], database: nil)
        #expect(run.status == 2)
        #expect(run.stderr == "error: no database: pass --database-url or set DATABASE_URL\n")
    }

    @Test func seedScaleFillsEveryTable() async throws {
        try await TestDatabase.with(demoData: false) { database in
            let run = try await Self.compass(["seed", "scale", "--users", "40", "--json"], database: database)
            #expect(run.status == 0, "\(run.stderr)")
            let tables = try #require(try run.json()["tables"] as? [String: Int])
            #expect(tables.values.allSatisfy { $0 > 0 }, "\(tables)")
            #expect(tables["auth.users"] == 40)
            // Same seed again: nothing new.
            let again = try await Self.compass(["seed", "scale", "--users", "40", "--json"], database: database)
            #expect(try again.json()["insertedRows"] as? Int == 0)
        }
    }
}
