// libFuzzer input function for the realtime protocol (RealtimeJSON/ and RealtimeProtocol/):
// every input is a client frame, as the WebSocket hands its text over.
//
// A frame that decodes (a v1 object or a v2 array) is encoded back in both versions and
// decoded again; a join's `config.postgres_changes` bindings are read, their filters parsed,
// bound to every column kind and matched against every value the payload holds, the way the
// fan-out matches rows.

@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let message: RealtimeMessage
    do {
        message = try RealtimeCodec.decode(text)
    } catch {
        // The refusal goes back to the client as a reply: rendering it must not trap.
        _ = RealtimeCodec.encode(RealtimeMessage.malformedFrameReply(reason: error.description), version: .v2)
        return 0
    }
    checkRoundTrip(message)
    _ = RealtimeTopic.channelName(of: message.topic)
    _ = RealtimeCodec.encode(RealtimeMessage.errorReply(to: message, reason: "refused"), version: .v1)

    let payloadValues = leaves(of: message.payload)
    for requested in message.payload["config"]?["postgres_changes"]?.arrayValue ?? [] {
        let binding = PostgresChangesBinding(requested: requested)
        _ = binding.replyEntry
        guard let filterText = binding.filterText, let filter = try? RealtimeFilter(parsing: filterText) else { continue }
        for kind in kinds {
            guard let compiled = try? CompiledRealtimeFilter(filter, kind: kind) else { continue }
            _ = compiled.equalityKey
            for value in payloadValues { _ = compiled.matches(value) }
        }
    }
    return 0
}

/// Every column kind a filter can be bound to.
private let kinds: [RealtimeValueKind] = [
    .bigint, RealtimeValueKind(typeName: "int2", category: "N"), RealtimeValueKind(typeName: "oid", category: "N"),
    .decimal, .float, .float4, .boolean, .uuid, .timestamp(withTimeZone: true), .timestamp(withTimeZone: false),
    .date, .text, .paddedText, .caseInsensitiveText, .enumeration(sortOrder: ["a": 1, "b": 1.5, "c": 2]),
    .unsupported("jsonb"),
]

/// Encoding then decoding gives the message back; 1.0.0 frames do not carry `join_ref`.
private func checkRoundTrip(_ message: RealtimeMessage) {
    for version in [RealtimeProtocolVersion.v1, .v2] {
        let encoded = RealtimeCodec.encode(message, version: version)
        guard let decoded = try? RealtimeCodec.decode(encoded) else { fatalError("encoded frame does not decode: \(encoded)") }
        var expected = message
        if version == .v1 { expected.joinRef = nil }
        precondition(decoded == expected, "\(version) round trip changed the frame: \(encoded)")
    }
}

/// The scalar values anywhere in `json` (at most 64, so one input stays fast).
private func leaves(of json: RealtimeJSON) -> [RealtimeJSON] {
    var found: [RealtimeJSON] = []
    var pending = [json]
    while let next = pending.popLast(), found.count < 64 {
        switch next {
        case .array(let elements): pending.append(contentsOf: elements)
        case .object(let fields): pending.append(contentsOf: fields.values)
        default: found.append(next)
        }
    }
    return found
}
