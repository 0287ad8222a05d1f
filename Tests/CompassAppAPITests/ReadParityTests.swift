import Foundation
import Testing

/// Each one-call read answers with exactly the bytes `compass … --json` prints for the same user and arguments.
@Suite("/api reads equal the CLI's --json")
struct ReadParityTests {
    typealias H = AppAPIHarness

    /// Runs the CLI line (at the server's instant) and the request, and compares the documents byte for byte.
    private func expectSame(
        _ harness: H, cli arguments: [String], user: UUID, api path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let clock = ["feed", "timeline", "interactions"].contains(arguments[0]) ? harness.nowArguments : []
        let run = try await harness.compass(arguments + clock + ["--user", user.uuidString.lowercased(), "--json"])
        #expect(run.status == 0, "\(arguments): \(run.stderr)", sourceLocation: sourceLocation)
        let reply = try await harness.send(.get, path, as: user)
        #expect(reply.status == .ok, "\(path): \(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.text == run.stdout, "\(path) differs from compass \(arguments.joined(separator: " "))", sourceLocation: sourceLocation)
        #expect(!reply.text.isEmpty && reply.json != nil, sourceLocation: sourceLocation)
    }

    @Test func theWholeFeedIsOneRequestAndTwoRoundTrips() async throws {
        try await H.with { harness in
            _ = try await harness.send(.get, "/api/v1/feed", as: H.sofia)  // opens the pool's connection
            let trips = try await harness.roundTrips {
                let reply = try await harness.send(.get, "/api/v1/feed", as: H.sofia)
                #expect(reply.status == .ok)
                #expect(reply.object["total"] as? Int == 31)
            }
            #expect(trips == 2)
        }
    }

    @Test func feed() async throws {
        try await H.with { harness in
            let cases: [([String], String)] = [
                ([], ""),
                (["--type", "status", "--range", "quarter"], "?type=status&range=quarter"),
                (["--type", "document_upload"], "?type=document_upload"),
                (["--search", "campus visit"], "?search=campus+visit"),
                (["--search", "Transcript"], "?search=Transcript"),
                (["--page", "2"], "?page=2"),
                (["--widget"], "?widget=true"),
            ]
            for (flags, query) in cases {
                try await expectSame(harness, cli: ["feed"] + flags, user: H.sofia, api: "/api/v1/feed" + query)
            }
            try await expectSame(harness, cli: ["feed"], user: H.marcus, api: "/api/v1/feed")
        }
    }

    @Test func timeline() async throws {
        try await H.with { harness in
            let school = try #require(
                try await harness.adminQuery("SELECT id FROM schools WHERE user_id = \(H.sofia) ORDER BY name LIMIT 1").first?
                    .decode(UUID.self, at: 0))
            let cases: [([String], String)] = [
                ([], ""),
                (["--range", "12", "--hide", "status_change"], "?range=12&hide=status_change"),
                (["--range", "3"], "?range=3"),
                (["--range", "all", "--hide", "event,offer"], "?range=all&hide=event%2Coffer"),
                (["--school", school.uuidString.lowercased()], "?school=\(school.uuidString)"),
            ]
            for (flags, query) in cases {
                try await expectSame(harness, cli: ["timeline"] + flags, user: H.sofia, api: "/api/v1/timeline" + query)
            }
        }
    }

    @Test func interactions() async throws {
        try await H.with { harness in
            for (flags, query) in [
                ([], ""), (["--type", "email"], "?type=email"), (["--direction", "inbound"], "?direction=inbound"),
                (["--sentiment", "positive", "--days", "90"], "?sentiment=positive&days=90"), (["--search", "coach"], "?search=coach"),
            ] as [([String], String)] {
                try await expectSame(harness, cli: ["interactions"] + flags, user: H.marcus, api: "/api/v1/interactions" + query)
            }
            let chen = H.chen.uuidString.lowercased()
            let lily = H.lily.uuidString.lowercased()
            try await expectSame(
                harness, cli: ["interactions", "--parent", "--family", chen], user: H.grace,
                api: "/api/v1/interactions?parent=true&family=\(chen)")
            try await expectSame(
                harness, cli: ["interactions", "--parent", "--family", chen, "--logged-by", lily, "--days", "30"], user: H.grace,
                api: "/api/v1/interactions?parent=true&family=\(chen)&logged-by=\(lily)&days=30")
        }
    }

    @Test func notificationsListAndUnread() async throws {
        try await H.with { harness in
            try await expectSame(harness, cli: ["notifications", "list"], user: H.sofia, api: "/api/v1/notifications")
            try await expectSame(harness, cli: ["notifications", "unread"], user: H.sofia, api: "/api/v1/notifications/unread")
        }
    }

    @Test func familyActivityPagesWithTheCursor() async throws {
        try await H.with { harness in
            try await expectSame(harness, cli: ["family-activity", "--limit", "2"], user: H.maria, api: "/api/v1/family-activity?limit=2")
            let first = try await harness.send(.get, "/api/v1/family-activity?limit=2", as: H.maria)
            let cursor = try #require(first.object["nextCursor"] as? String)
            try await expectSame(
                harness, cli: ["family-activity", "--limit", "2", "--cursor", cursor], user: H.maria,
                api: "/api/v1/family-activity?limit=2&cursor=\(cursor)")
            try await expectSame(harness, cli: ["family-activity"], user: H.maria, api: "/api/v1/family-activity")
        }
    }

    /// The actions answer like `compass notifications read|delete|read-all|clear --json`, and the CLI sees their effect.
    @Test func notificationActionsReturnTheNewUnreadCount() async throws {
        try await H.with { harness in
            let sofia = ["--user", H.sofia.uuidString.lowercased(), "--json"]
            let list = try await harness.send(.get, "/api/v1/notifications", as: H.sofia).object
            let rows = try #require(list["notifications"] as? [[String: Any]])
            let unreadBefore = try #require(list["unreadCount"] as? Int)
            // A grouped unread row: its id marks the whole group.
            let group = try #require(rows.first { $0["isGrouped"] as? Bool == true && $0["isRead"] as? Bool == false })
            let groupId = try #require(group["id"] as? String)
            let activities = try #require(group["activities"] as? [[String: Any]])
            let groupSize = activities.filter { $0["isRead"] as? Bool == false }.count
            #expect(activities.count > 1)
            let read = try await harness.send(.post, "/api/v1/notifications/read", as: H.sofia, json: #"{"ids": ["\#(groupId)"]}"#)
            #expect(read.status == .ok, "\(read.text)")
            #expect(read.object["changed"] as? Int == groupSize)
            #expect(read.object["unreadCount"] as? Int == unreadBefore - groupSize)
            let cliUnread = try await harness.compass(["notifications", "unread"] + sofia).json()
            #expect(cliUnread["unreadCount"] as? Int == read.object["unreadCount"] as? Int)

            let single = try #require(rows.first { $0["isGrouped"] as? Bool == false }?["id"] as? String)
            let deleted = try await harness.send(.delete, "/api/v1/notifications/\(single)", as: H.sofia)
            #expect(deleted.status == .ok, "\(deleted.text)")
            #expect(deleted.object["changed"] as? Int == 1)
            let cliList = try await harness.compass(["notifications", "list"] + sofia).json()
            #expect(!((cliList["notifications"] as? [[String: Any]]) ?? []).contains { $0["id"] as? String == single })
            #expect(cliList["unreadCount"] as? Int == deleted.object["unreadCount"] as? Int)
            let missing = try await harness.send(.delete, "/api/v1/notifications/\(single)", as: H.sofia)
            #expect(missing.status == .notFound)

            let readAll = try await harness.send(.post, "/api/v1/notifications/read-all", as: H.sofia)
            #expect(readAll.object["unreadCount"] as? Int == 0)
            let cleared = try await harness.send(.delete, "/api/v1/notifications", as: H.sofia)
            #expect(cleared.status == .ok)
            #expect(cleared.object["unreadCount"] as? Int == 0)
            try await expectSame(harness, cli: ["notifications", "list"], user: H.sofia, api: "/api/v1/notifications")
            #expect((try await harness.compass(["notifications", "list"] + sofia).json()["notifications"] as? [Any])?.isEmpty == true)
        }
    }
}
