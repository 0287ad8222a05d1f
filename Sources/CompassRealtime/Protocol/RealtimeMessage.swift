/// The frame encoding a connection chose with its `vsn` query parameter.
public enum RealtimeProtocolVersion: String, Sendable, Hashable {
    /// JSON objects: `{"topic","event","payload","ref"}`.
    case v1 = "1.0.0"
    /// JSON arrays: `[join_ref, ref, topic, event, payload]`.
    case v2 = "2.0.0"

    /// The version a `vsn` parameter asks for: absent means 1.0.0; unknown values give nil.
    public init?(vsn: String?) {
        guard let vsn else {
            self = .v1
            return
        }
        self.init(rawValue: vsn)
    }
}

/// One Phoenix channel message, in either direction.
///
/// ```swift
/// let join = RealtimeMessage(topic: "realtime:feed", event: "phx_join", payload: [:], ref: "1", joinRef: "1")
/// ```
public struct RealtimeMessage: Sendable, Hashable {
    /// The ref of the `phx_join` this frame belongs to; null for connection-level frames.
    public var joinRef: String?
    /// The client's ref for replies to echo; null on pushes.
    public var ref: String?
    /// `realtime:<name>` for channels, `phoenix` for heartbeats.
    public var topic: String
    /// `phx_join`, `phx_reply`, `postgres_changes`, ….
    public var event: String
    /// The event's payload; always an object on the wire.
    public var payload: RealtimeJSON

    /// Makes a message.
    public init(topic: String, event: String, payload: RealtimeJSON, ref: String? = nil, joinRef: String? = nil) {
        self.topic = topic
        self.event = event
        self.payload = payload
        self.ref = ref
        self.joinRef = joinRef
    }
}

/// Event names of the Phoenix channel protocol used here.
public enum RealtimeEvent {
    public static let join = "phx_join"
    public static let leave = "phx_leave"
    public static let reply = "phx_reply"
    public static let close = "phx_close"
    public static let error = "phx_error"
    public static let heartbeat = "heartbeat"
    public static let accessToken = "access_token"
    public static let system = "system"
    public static let postgresChanges = "postgres_changes"
}

/// The topic prefix of realtime channels and the topic of connection-level frames.
public enum RealtimeTopic {
    public static let channelPrefix = "realtime:"
    public static let phoenix = "phoenix"

    /// The channel name of a `realtime:<name>` topic (empty for `realtime:`), nil for other topics.
    public static func channelName(of topic: String) -> String? {
        guard topic.hasPrefix(channelPrefix) else { return nil }
        return String(topic.dropFirst(channelPrefix.count))
    }
}
