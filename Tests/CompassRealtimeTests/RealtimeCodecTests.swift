import Testing

@testable import CompassRealtime

@Suite("Wire codec: 1.0.0 objects and 2.0.0 arrays (no sockets)")
struct RealtimeCodecTests {
    @Test func decodesObjectFramesWithAnyKeyOrderAndMissingJoinRef() throws {
        let message = try RealtimeCodec.decode(
            #"{"payload":{"config":{}},"ref":"1","topic":"realtime:feed","event":"phx_join"}"#)
        #expect(message.topic == "realtime:feed")
        #expect(message.event == "phx_join")
        #expect(message.ref == "1")
        #expect(message.joinRef == nil)
        #expect(message.payload["config"] == .object([:]))
    }

    @Test func decodesArrayFrames() throws {
        let message = try RealtimeCodec.decode(#"["3","4","realtime:feed","access_token",{"access_token":"t"}]"#)
        #expect(message.joinRef == "3")
        #expect(message.ref == "4")
        #expect(message.event == "access_token")
        #expect(message.payload["access_token"]?.stringValue == "t")
    }

    @Test func heartbeatWithNullRefIsAccepted() throws {
        let message = try RealtimeCodec.decode(#"{"topic":"phoenix","event":"heartbeat","payload":{},"ref":null}"#)
        #expect(message.ref == nil)
        let reply = RealtimeMessage.reply(to: message, status: .ok)
        #expect(
            RealtimeCodec.encode(reply, version: .v1)
                == #"{"event":"phx_reply","payload":{"response":{},"status":"ok"},"ref":null,"topic":"phoenix"}"#)
    }

    @Test func rejectsWhatIsNotAFrame() {
        #expect(throws: RealtimeFrameError.self) { try RealtimeCodec.decode("hello") }
        #expect(throws: RealtimeFrameError.self) { try RealtimeCodec.decode("[1,2,3]") }
        #expect(throws: RealtimeFrameError.self) { try RealtimeCodec.decode(#"{"topic":1,"event":"x"}"#) }
        #expect(throws: RealtimeFrameError.self) { try RealtimeCodec.decode(#"["1","1","t","e","payload"]"#) }
        #expect(throws: RealtimeFrameError.self) { try RealtimeCodec.decode("42") }
    }

    @Test func encodesV1WithRefAlwaysPresentAndNoJoinRef() {
        let system = RealtimeMessage.system(
            topic: "realtime:feed", joinRef: "7", extension: "postgres_changes", status: .ok,
            message: "Subscribed to PostgreSQL")
        let text = RealtimeCodec.encode(system, version: .v1)
        #expect(text.contains(#""ref":null"#))
        #expect(!text.contains("join_ref"))
        #expect(text.contains(#""channel":"feed""#))
    }

    @Test func encodesV2AsFiveElementArrays() throws {
        let close = RealtimeMessage.close(topic: "realtime:feed", joinRef: "7")
        let text = RealtimeCodec.encode(close, version: .v2)
        #expect(text == #"["7","7","realtime:feed","phx_close",{}]"#)
        let parsed = try RealtimeJSON(parsing: text)
        #expect(parsed.arrayValue?.count == 5)
    }

    @Test func stringsAreEscaped() throws {
        let text = RealtimeJSON.quoted("a\"b\\c\nd\u{01}é")
        #expect(text == #""a\"b\\c\nd\u0001é""#)
        #expect(try RealtimeJSON(parsing: text) == .string("a\"b\\c\nd\u{01}é"))
    }

    @Test func numbersKeepTheirText() throws {
        let members = try RealtimeJSON.objectMembers(of: #"{"id": 12345678901234567890.123, "tags": ["a", 1], "n": null}"#)
        #expect(members.map(\.name) == ["id", "tags", "n"])
        #expect(members[0].rawText == "12345678901234567890.123")
        #expect(members[1].rawText == #"["a", 1]"#)
        #expect(members[2].value == .null)
    }

    /// A row's jsonb column may nest deeper than the parser recurses: the row is still read (the
    /// column's text passed on as written), where the change used to be dropped.
    @Test func aRowWithADeeplyNestedColumnIsStillRead() throws {
        let deep = String(repeating: #"{"a":["x]\"{",  "#, count: 300) + "1" + String(repeating: "]}", count: 300)
        let members = try RealtimeJSON.objectMembers(of: #"{"id": 7, "changes": \#(deep), "note": "ok"}"#)
        #expect(members.map(\.name) == ["id", "changes", "note"])
        #expect(members[1].rawText == deep)
        #expect(members[1].value == .object([:]))
        #expect(members[2].value == .string("ok"))
        // Still JSON: unbalanced or unterminated text is refused.
        #expect(throws: RealtimeJSONError.self) { try RealtimeJSON.objectMembers(of: #"{"x": "# + String(repeating: "[", count: 300) + "}") }
        #expect(throws: RealtimeJSONError.self) {
            try RealtimeJSON.objectMembers(of: #"{"x": "# + String(repeating: "[", count: 300) + String(repeating: "]", count: 299) + "}")
        }
    }

    @Test func parserHandlesEscapesAndRejectsDeepNesting() throws {
        #expect(try RealtimeJSON(parsing: #""\ud83d\ude00 \u00e9""#) == .string("😀 é"))
        #expect(throws: RealtimeJSONError.self) { try RealtimeJSON(parsing: #""\ud83d""#) }
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(throws: RealtimeJSONError.self) { try RealtimeJSON(parsing: deep) }
        #expect(throws: RealtimeJSONError.self) { try RealtimeJSON(parsing: "01") }
        #expect(throws: RealtimeJSONError.self) { try RealtimeJSON(parsing: "{\"a\":1,}") }
    }

    @Test func versionsFromVsn() {
        #expect(RealtimeProtocolVersion(vsn: nil) == .v1)
        #expect(RealtimeProtocolVersion(vsn: "1.0.0") == .v1)
        #expect(RealtimeProtocolVersion(vsn: "2.0.0") == .v2)
        #expect(RealtimeProtocolVersion(vsn: "3.0.0") == nil)
    }

    @Test func bindingsEchoWhatWasSentWithStableNonZeroIds() {
        let requested: RealtimeJSON = [
            "event": "insert", "schema": "public", "table": "interactions", "filter": "logged_by=eq.ABC",
        ]
        let binding = PostgresChangesBinding(requested: requested)
        #expect(binding.changeType == .insert)
        #expect(binding.id > 0 && binding.id < (1 << 27))
        #expect(binding.id == PostgresChangesBinding(requested: requested).id)
        guard case .object(let entry) = binding.replyEntry else {
            Issue.record("reply entry is not an object")
            return
        }
        #expect(entry["event"] == "insert")
        #expect(entry["filter"] == "logged_by=eq.ABC")
        #expect(entry["id"] == .number(String(binding.id)))

        let bare = PostgresChangesBinding(requested: ["event": "*"])
        #expect(bare.schema == "public")
        #expect(bare.table == nil)
        #expect(bare.changeType == nil)
        #expect(bare.replyEntry.objectValue?.keys.sorted() == ["event", "id"])
        #expect(PostgresChangesBinding(requested: ["event": "TRUNCATE"]).changeType == nil)
        #expect(PostgresChangesBinding(requested: "oops").shapeError != nil)
    }
}
