/// Why a client frame could not be read as a channel message.
public enum RealtimeFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text is not JSON.
    case notJSON(RealtimeJSONError)
    /// The JSON does not have the envelope's shape.
    case wrongShape(String)

    public var description: String {
        switch self {
        case .notJSON(let error): return "not JSON: \(error)"
        case .wrongShape(let reason): return "not a channel message: \(reason)"
        }
    }
}

/// Reads and writes channel messages in both wire encodings.
///
/// ```swift
/// let message = try RealtimeCodec.decode(text)
/// let text = RealtimeCodec.encode(reply, version: .v2)
/// ```
/// Decoding accepts either form whatever the connection's version, since the shapes
/// cannot be confused; encoding follows the version.
public enum RealtimeCodec {
    /// Parses a client frame.
    public static func decode(_ text: String) throws(RealtimeFrameError) -> RealtimeMessage {
        let json: RealtimeJSON
        do {
            json = try RealtimeJSON(parsing: text)
        } catch {
            throw .notJSON(error)
        }
        switch json {
        case .array(let elements):
            guard elements.count == 5 else { throw .wrongShape("an array frame has 5 elements") }
            return try message(
                joinRef: elements[0], ref: elements[1], topic: elements[2], event: elements[3], payload: elements[4])
        case .object(let fields):
            return try message(
                joinRef: fields["join_ref"] ?? .null, ref: fields["ref"] ?? .null, topic: fields["topic"] ?? .null,
                event: fields["event"] ?? .null, payload: fields["payload"] ?? .object([:]))
        default:
            throw .wrongShape("a frame is a JSON object or array")
        }
    }

    private static func message(
        joinRef: RealtimeJSON, ref: RealtimeJSON, topic: RealtimeJSON, event: RealtimeJSON, payload: RealtimeJSON
    ) throws(RealtimeFrameError) -> RealtimeMessage {
        guard case .string(let topic) = topic else { throw .wrongShape("topic must be a string") }
        guard case .string(let event) = event else { throw .wrongShape("event must be a string") }
        let payload = payload.isNull ? .object([:]) : payload
        guard case .object = payload else { throw .wrongShape("payload must be an object") }
        return RealtimeMessage(
            topic: topic, event: event, payload: payload, ref: try refText(ref, "ref"), joinRef: try refText(joinRef, "join_ref"))
    }

    /// Refs are strings; a number is tolerated and kept as its text.
    private static func refText(_ value: RealtimeJSON, _ name: String) throws(RealtimeFrameError) -> String? {
        switch value {
        case .null: return nil
        case .string(let text): return text
        case .number(let text): return text
        default: throw .wrongShape("\(name) must be a string or null")
        }
    }

    /// Writes a server frame: 1.0.0 always carries `ref` (null included) and omits `join_ref`.
    public static func encode(_ message: RealtimeMessage, version: RealtimeProtocolVersion) -> String {
        encode(
            topic: message.topic, event: message.event, payloadJSON: message.payload.jsonText,
            ref: message.ref, joinRef: message.joinRef, version: version)
    }

    /// Writes a server frame around payload JSON that is already encoded (change events reuse it).
    public static func encode(
        topic: String, event: String, payloadJSON: String, ref: String?, joinRef: String?,
        version: RealtimeProtocolVersion
    ) -> String {
        var output = ""
        output.reserveCapacity(payloadJSON.utf8.count + topic.utf8.count + 64)
        switch version {
        case .v1:
            output += #"{"event":"#
            RealtimeJSON.writeQuoted(event, to: &output)
            output += #","payload":"#
            output += payloadJSON
            output += #","ref":"#
            writeOptional(ref, to: &output)
            output += #","topic":"#
            RealtimeJSON.writeQuoted(topic, to: &output)
            output += "}"
        case .v2:
            output += "["
            writeOptional(joinRef, to: &output)
            output += ","
            writeOptional(ref, to: &output)
            output += ","
            RealtimeJSON.writeQuoted(topic, to: &output)
            output += ","
            RealtimeJSON.writeQuoted(event, to: &output)
            output += ","
            output += payloadJSON
            output += "]"
        }
        return output
    }

    private static func writeOptional(_ text: String?, to output: inout String) {
        if let text {
            RealtimeJSON.writeQuoted(text, to: &output)
        } else {
            output += "null"
        }
    }
}
