import CompassServer
import CompassTestSupport
import Foundation
import Postgres
import Testing

/// `/rest/v1` over real HTTP, with input a careless or hostile client sends: the API key in the
/// query string, PATCH/DELETE without a filter, `select=` nested without end, replies too large
/// to send, NUL characters in text. Each answer is PostgREST's error shape, and nothing is written.
@Suite("REST refuses hostile input over HTTP")
struct RESTHostileInputTests {
    /// A table and two functions every API role may use, with no row-level security in the way.
    static func installNotes(_ harness: ServerHarness) async throws {
        for statement: PostgresQuery in [
            "CREATE TABLE public.notes (id serial PRIMARY KEY, body text NOT NULL)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON public.notes TO anon, authenticated, service_role",
            "GRANT USAGE ON SEQUENCE public.notes_id_seq TO anon, authenticated, service_role",
            "INSERT INTO public.notes (body) VALUES ('first'), ('second')",
            """
            CREATE FUNCTION public.add_note(body text) RETURNS text LANGUAGE sql
            AS 'INSERT INTO public.notes (body) VALUES (add_note.body) RETURNING body'
            """,
            "CREATE FUNCTION public.echo_text(value text) RETURNS text LANGUAGE sql IMMUTABLE AS 'SELECT value'",
            "GRANT EXECUTE ON FUNCTION public.add_note(text), public.echo_text(text) TO anon, authenticated, service_role",
            "NOTIFY pgrst, 'reload schema'",
        ] {
            _ = try await harness.database.query(statement)
        }
        try await Task.sleep(for: .milliseconds(300))
    }

    /// The bodies in `notes`, in insertion order, as the superuser sees them.
    static func notes(_ harness: ServerHarness) async throws -> [String] {
        try await harness.database.query("SELECT body FROM public.notes ORDER BY id").map { try $0.decode(String.self, at: 0) }
    }

    /// One request with the anon key as `apikey` header (unless `key` is false) and bearer.
    static func send(
        _ harness: ServerHarness, _ method: String, _ target: String, body: String? = nil, key: Bool = true,
        headers: [String: String] = [:]
    ) async throws -> HTTPReply {
        var fields = headers
        if key {
            fields["apikey"] = harness.keys.anon
            fields["Authorization"] = "Bearer \(harness.keys.anon)"
        }
        return try await HTTPReply.exchange(method, target, port: harness.port, headers: fields, body: body)
    }

    @Test func theAPIKeyInTheQueryStringIsTheGatewaysNotAFilterOrAnArgument() async throws {
        try await ServerHarness.with { harness in
            try await Self.installNotes(harness)
            let key = harness.keys.anon
            let read = try await Self.send(harness, "GET", "/rest/v1/notes?select=body&order=id&apikey=\(key)", key: false)
            #expect(read.status == 200, "\(read.body)")
            #expect(read.json as? [[String: String]] == [["body": "first"], ["body": "second"]])
            let schools = try await Self.send(harness, "GET", "/rest/v1/schools?select=id&apikey=\(key)", key: false)
            #expect(schools.status == 200, "\(schools.body)")
            let echo = try await Self.send(harness, "GET", "/rest/v1/rpc/echo_text?apikey=\(key)&value=hi", key: false)
            #expect(echo.status == 200, "\(echo.body)")
            #expect(echo.body == #""hi""#)
            let call = try await Self.send(harness, "POST", "/rest/v1/rpc/add_note?apikey=\(key)", body: #"{"body":"third"}"#, key: false)
            #expect(call.status == 200, "\(call.body)")
            // The key alone is no filter: an otherwise unfiltered DELETE is still refused.
            let delete = try await Self.send(harness, "DELETE", "/rest/v1/notes?apikey=\(key)", key: false)
            #expect(delete.isError("21000", status: 400))
            #expect(try await Self.notes(harness) == ["first", "second", "third"])
        }
    }

    @Test func patchAndDeleteWithoutAFilterAreRefusedAsPgSafeupdateRefusesThem() async throws {
        try await ServerHarness.with { harness in
            try await Self.installNotes(harness)
            for target in ["/rest/v1/notes", "/rest/v1/notes?limit=1&order=id", "/rest/v1/notes?select=id,body"] {
                let patch = try await Self.send(
                    harness, "PATCH", target, body: #"{"body":"gone"}"#, headers: ["Prefer": "return=representation"])
                #expect(patch.status == 400)
                #expect(patch.body == #"{"code":"21000","details":null,"hint":null,"message":"UPDATE requires a WHERE clause"}"#)
                let delete = try await Self.send(harness, "DELETE", target)
                #expect(delete.status == 400)
                #expect(delete.body == #"{"code":"21000","details":null,"hint":null,"message":"DELETE requires a WHERE clause"}"#)
            }
            #expect(try await Self.notes(harness) == ["first", "second"])
            let filtered = try await Self.send(harness, "PATCH", "/rest/v1/notes?or=(body.eq.first,body.eq.none)", body: #"{"body":"one"}"#)
            #expect(filtered.status == 204)
            let all = try await Self.send(harness, "DELETE", "/rest/v1/notes?id=gt.0")
            #expect(all.status == 204)
            #expect(try await Self.notes(harness).isEmpty)
        }
    }

    @Test func theSafeUpdateSettingTurnsTheGuardOff() async throws {
        try await ServerHarness.with(adjust: { $0.rest.requiresFilteredWrites = false }) { harness in
            try await Self.installNotes(harness)
            #expect(try await Self.send(harness, "PATCH", "/rest/v1/notes", body: #"{"body":"same"}"#).status == 204)
            #expect(try await Self.notes(harness) == ["same", "same"])
            #expect(try await Self.send(harness, "DELETE", "/rest/v1/notes").status == 204)
            #expect(try await Self.notes(harness).isEmpty)
        }
    }

    @Test func embedsNestedPastTheLimitAreRefusedBeforeAnySQLAndTheServerLives() async throws {
        try await ServerHarness.with(adjust: { $0.rest.maximumEmbedDepth = 2 }) { harness in
            let allowed = try await Self.send(harness, "GET", "/rest/v1/schools?select=id,coaches(id,schools(id))&limit=1")
            #expect(allowed.status == 200, "\(allowed.body)")
            let deep = try await Self.send(harness, "GET", "/rest/v1/schools?select=id,coaches(id,schools(id,coaches(id)))")
            #expect(deep.isError("PGRST100", status: 400))
            #expect(deep.object["message"] as? String == "select parameter nests embedded resources more than 2 levels deep")
            // As deep as a URL may be (16 KiB): refused at the third level, nothing further parsed.
            let depth = 5_000
            let hostile = String(repeating: "a(", count: depth) + "id" + String(repeating: ")", count: depth)
            let refused = try await Self.send(harness, "GET", "/rest/v1/schools?select=\(hostile)")
            #expect(refused.isError("PGRST100", status: 400))
            let logic = String(repeating: "and(", count: 3_000) + "id.eq.1" + String(repeating: ")", count: 3_000)
            let tree = try await Self.send(harness, "GET", "/rest/v1/schools?select=id&or=(\(logic))")
            #expect(tree.isError("PGRST100", status: 400))
            #expect(tree.object["message"] as? String == "logic tree nests and/or groups more than 16 levels deep")
            #expect(try await RawConnection.get("/health", port: harness.port, headers: [:]) == 200)
        }
    }

    @Test func aReplyLargerThanTheLimitStaysInPostgresAndAWriteThatMadeItIsUndone() async throws {
        try await ServerHarness.with(adjust: { $0.rest.maximumReplyBytes = 4096 }) { harness in
            try await Self.installNotes(harness)
            _ = try await harness.database.query("INSERT INTO public.notes (body) SELECT repeat('x', 1000) FROM generate_series(1, 8)")
            let large = try await Self.send(harness, "GET", "/rest/v1/notes")
            #expect(large.isError("54000", status: 500))
            #expect(large.object["message"] as? String == "Response body is larger than 4096 bytes")
            #expect((large.object["details"] as? String)?.contains("COMPASS_REST_MAX_REPLY_BYTES") == true)
            #expect(large.body.utf8.count < 1024)
            let page = try await Self.send(harness, "GET", "/rest/v1/notes?limit=2")
            #expect(page.status == 200)
            let update = try await Self.send(
                harness, "PATCH", "/rest/v1/notes?id=gt.0", body: #"{"body":"\#(String(repeating: "y", count: 1000))"}"#,
                headers: ["Prefer": "return=representation"])
            #expect(update.isError("54000", status: 500))
            #expect(try await Self.notes(harness).filter { $0.hasPrefix("y") }.isEmpty)
            let call = try await Self.send(harness, "POST", "/rest/v1/rpc/echo_text", body: #"{"value":"\#(String(repeating: "z", count: 5000))"}"#)
            #expect(call.isError("54000", status: 500))
        }
    }

    /// Large replies a client does not read stay in memory until its connection ends: past the
    /// server's budget for them, a large read is refused (503) while small ones are answered, and
    /// once the reader goes the budget is free again.
    @Test func largeRepliesNobodyReadsAreBoundedTogether() async throws {
        try await ServerHarness.with(adjust: { $0.http.maximumUnsentReplyBytes = 1 << 20 }) { harness in
            try await Self.installNotes(harness)
            _ = try await harness.database.query("INSERT INTO public.notes (body) SELECT repeat('x', 1000000) FROM generate_series(1, 12)")
            let large = "GET /rest/v1/notes?select=body HTTP/1.1\r\nHost: x\r\napikey: \(harness.keys.anon)\r\n\r\n"
            let stalled = try RawConnection(port: harness.port)
            await stalled.send(large)  // and never reads
            let replies = harness.server.context.replies
            let deadline = ContinuousClock.now + .seconds(20)
            while replies.heldBytes <= 1 << 20, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(replies.heldBytes > 1 << 20, "the unread reply is counted: \(replies.heldBytes)")

            let refused = try await Self.send(harness, "GET", "/rest/v1/notes?select=body")
            #expect(refused.isError("server_busy", status: 503), "\(refused.status.map(String.init) ?? "no status")")
            #expect(refused.header("Retry-After") == "1")
            let small = try await Self.send(harness, "GET", "/rest/v1/notes?select=body&id=eq.1")
            #expect(small.status == 200)
            // A write's reply could not be refused once committed: writes wait, and change nothing.
            let write = try await Self.send(harness, "POST", "/rest/v1/notes", body: #"{"body":"later"}"#)
            #expect(write.isError("server_busy", status: 503))
            #expect(try await harness.database.query("SELECT count(*)::int FROM public.notes WHERE body = 'later'")[0].decode(Int.self, at: 0) == 0)

            stalled.hangUp()
            let freed = ContinuousClock.now + .seconds(20)
            while replies.heldBytes > 0, ContinuousClock.now < freed { try await Task.sleep(for: .milliseconds(50)) }
            #expect(replies.heldBytes == 0)
            let served = try await Self.send(harness, "GET", "/rest/v1/notes?select=id")
            #expect(served.status == 200)
        }
    }

    /// `RAISE SQLSTATE 'PGRST'`'s `status_text` is the status line's reason phrase, as in PostgREST
    /// (a line break in it cannot split the status line).
    @Test func aRaisedStatusTextIsTheReasonPhrase() async throws {
        try await ServerHarness.with { harness in
            for statement: PostgresQuery in [
                """
                CREATE FUNCTION public.refuse_politely(reason text) RETURNS void LANGUAGE plpgsql AS $$
                BEGIN
                  RAISE SQLSTATE 'PGRST' USING MESSAGE = '{"code":"CMP02","message":"no"}',
                    DETAIL = json_build_object('status', 420, 'status_text', reason, 'headers', '{}'::json)::text;
                END $$
                """,
                "GRANT EXECUTE ON FUNCTION public.refuse_politely(text) TO anon",
                "NOTIFY pgrst, 'reload schema'",
            ] {
                _ = try await harness.database.query(statement)
            }
            try await Task.sleep(for: .milliseconds(300))
            let polite = try await Self.send(harness, "POST", "/rest/v1/rpc/refuse_politely", body: #"{"reason":"Enhance Your Calm"}"#)
            #expect(polite.headers.hasPrefix("HTTP/1.1 420 Enhance Your Calm\r\n"), "\(polite.headers.prefix(80))")
            #expect(polite.object["code"] as? String == "CMP02")
            let split = try await Self.send(harness, "POST", "/rest/v1/rpc/refuse_politely", body: #"{"reason":"Calm\r\nX-Injected: 1"}"#)
            #expect(split.status == 420, "\(split.headers.prefix(120))")
            #expect(!split.headers.lowercased().contains("\r\nx-injected"), "\(split.headers)")
        }
    }

    @Test func bytesThatAreNotUTF8AreA400NotAStoredReplacementCharacter() async throws {
        try await ServerHarness.with { harness in
            try await Self.installNotes(harness)
            let headers = ["apikey": harness.keys.anon, "Authorization": "Bearer \(harness.keys.anon)"]
            let invalid: [UInt8] = Array(#"{"body":"a"#.utf8) + [0xFF, 0xFE] + Array(#"b"}"#.utf8)
            for (method, target) in [("POST", "/rest/v1/notes"), ("PATCH", "/rest/v1/notes?id=eq.1"), ("POST", "/rest/v1/rpc/add_note")] {
                let reply = try await HTTPReply.exchange(method, target, port: harness.port, headers: headers, bytes: invalid)
                #expect(reply.status == 400, "\(target): \(reply.body)")
                #expect(reply.object["code"] as? String == "22021")
                #expect(reply.object["message"] as? String == #"invalid byte sequence for encoding "UTF8": 0xff"#, "\(reply.body)")
            }
            // A form's escapes too: `%FF` is no more text in a form than in a query string.
            let form = ["apikey": harness.keys.anon, "Authorization": "Bearer \(harness.keys.anon)", "Content-Type": "application/x-www-form-urlencoded"]
            for (method, target) in [("POST", "/rest/v1/notes"), ("POST", "/rest/v1/rpc/add_note")] {
                let reply = try await HTTPReply.exchange(method, target, port: harness.port, headers: form, bytes: Array("body=a%FF%FEb".utf8))
                #expect(reply.status == 400, "\(target): \(reply.body)")
                #expect(reply.object["code"] as? String == "22021", "\(reply.body)")
            }
            let filter = try await Self.send(harness, "GET", "/rest/v1/notes?body=eq.a%FF%FEb")
            #expect(filter.status == 400, "\(filter.body)")
            #expect(filter.object["code"] as? String == "22021")
            #expect((filter.object["details"] as? String)?.contains("query string") == true)
            #expect(try await Self.notes(harness) == ["first", "second"])
            // Escaped UTF-8 is text like any other.
            let accented = try await Self.send(harness, "GET", "/rest/v1/notes?body=eq.caf%C3%A9")
            #expect(accented.status == 200, "\(accented.body)")
        }
    }

    @Test func aNULInAnyTextValueIsA400ThatNeitherEchoesNorWritesIt() async throws {
        try await ServerHarness.with { harness in
            try await Self.installNotes(harness)
            let nul = #"\u0000"#  // JSON's escape for the NUL character
            let replies = [
                try await Self.send(harness, "GET", "/rest/v1/notes?body=eq.a%00b"),
                try await Self.send(harness, "GET", "/rest/v1/notes?or=(body.eq.a%00b,body.is.null)"),
                try await Self.send(harness, "GET", "/rest/v1/notes?body=in.(first,a%00b)"),
                try await Self.send(harness, "DELETE", "/rest/v1/notes?body=eq.first%00"),
                try await Self.send(harness, "PATCH", "/rest/v1/notes?body=eq.first%00", body: #"{"body":"changed"}"#),
                try await Self.send(harness, "POST", "/rest/v1/notes", body: #"{"body":"a\#(nul)b"}"#),
                try await Self.send(harness, "POST", "/rest/v1/notes", body: #"[{"body":"ok"},{"body":"a\#(nul)b"}]"#),
                try await Self.send(harness, "PATCH", "/rest/v1/notes?id=gt.0", body: #"{"body":"a\#(nul)b"}"#),
                try await Self.send(harness, "GET", "/rest/v1/rpc/echo_text?value=a%00b"),
                try await Self.send(harness, "POST", "/rest/v1/rpc/add_note", body: #"{"body":"a\#(nul)b"}"#),
            ]
            for reply in replies {
                #expect(reply.status == 400, "\(reply.body)")
                #expect(["22021", "22P05"].contains(reply.object["code"] as? String), "\(reply.body)")
                #expect((reply.object["hint"] as? String)?.contains("NUL character") == true, "\(reply.body)")
                #expect(!reply.body.contains("a\(nul)b") && !reply.body.contains("a\u{0}b") && !reply.body.contains("parameter $"))
            }
            // A raw NUL byte is not JSON at all.
            let raw = try await Self.send(harness, "POST", "/rest/v1/notes", body: "{\"body\":\"a\u{0}b\"}")
            #expect(raw.isError("PGRST102", status: 400))
            #expect(try await Self.notes(harness) == ["first", "second"])
        }
    }
}

/// A reply read off a raw connection: status, header block and body.
struct HTTPReply {
    var status: Int?
    var headers: String
    var body: String

    var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) }
    var object: [String: Any] { json as? [String: Any] ?? [:] }

    /// Every value of header `name` (any case), in order.
    func values(_ name: String) -> [String] {
        headers.split(separator: "\r\n").dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    /// The first value of header `name`.
    func header(_ name: String) -> String? { values(name).first }

    /// Whether this is PostgREST's error body: exactly the four keys, and the given code.
    func isError(_ code: String, status expected: Int) -> Bool {
        status == expected && Set(object.keys) == ["code", "message", "details", "hint"] && object["code"] as? String == code
    }

    /// Sends `method target` with `Connection: close`, the headers and a JSON body, and reads the reply.
    static func exchange(
        _ method: String, _ target: String, port: Int, headers: [String: String], body: String? = nil
    ) async throws -> HTTPReply {
        try await exchange(method, target, port: port, headers: headers, bytes: body.map { Array($0.utf8) })
    }

    /// ``exchange(_:_:port:headers:body:)`` with a body of any bytes (not necessarily UTF-8).
    static func exchange(
        _ method: String, _ target: String, port: Int, headers: [String: String], bytes body: [UInt8]?
    ) async throws -> HTTPReply {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        let bytes = body ?? []
        if body != nil, !headers.keys.contains(where: { $0.lowercased() == "content-type" }) { text += "Content-Type: application/json\r\n" }
        text += "Content-Length: \(bytes.count)\r\n\r\n"
        let connection = try RawConnection(port: port)
        await connection.send(Array(text.utf8) + bytes)
        let reply = await connection.readUntilClosed(timeout: .seconds(15)).text
        guard let split = reply.range(of: "\r\n\r\n") else { return HTTPReply(status: nil, headers: reply, body: "") }
        let head = String(reply[..<split.lowerBound])
        var content = String(reply[split.upperBound...])
        if head.lowercased().contains("transfer-encoding: chunked") { content = dechunked(content) }
        return HTTPReply(status: RawConnection.status(of: head), headers: head, body: content)
    }

    /// A chunked body's data: each chunk is a hex length line, the bytes, CRLF; a 0 length ends it.
    static func dechunked(_ text: String) -> String {
        var rest = Array(text.utf8)[...]
        var data: [UInt8] = []
        while let lineEnd = rest.firstIndex(of: UInt8(ascii: "\r")),
            let size = Int(String(decoding: rest[..<lineEnd], as: UTF8.self), radix: 16), size > 0
        {
            let start = lineEnd + 2
            data += rest[start..<min(start + size, rest.endIndex)]
            rest = rest[min(start + size + 2, rest.endIndex)...]
        }
        return String(decoding: data, as: UTF8.self)
    }
}
