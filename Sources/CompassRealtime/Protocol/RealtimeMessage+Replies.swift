/// The server's frames, built the way each client expects them.
extension RealtimeMessage {
    /// `phx_reply` to `request`: same topic and ref, its join ref echoed.
    public static func reply(to request: RealtimeMessage, status: ReplyStatus, response: RealtimeJSON = [:]) -> RealtimeMessage {
        RealtimeMessage(
            topic: request.topic, event: RealtimeEvent.reply,
            payload: ["status": .string(status.rawValue), "response": response],
            ref: request.ref, joinRef: request.joinRef)
    }

    /// `phx_reply` error `{"reason": …}` to `request`.
    public static func errorReply(to request: RealtimeMessage, reason: String) -> RealtimeMessage {
        reply(to: request, status: .error, response: ["reason": .string(reason)])
    }

    /// An error for a frame that could not be read at all: topic `phoenix`, null refs.
    public static func malformedFrameReply(reason: String) -> RealtimeMessage {
        RealtimeMessage(
            topic: RealtimeTopic.phoenix, event: RealtimeEvent.reply,
            payload: ["status": "error", "response": ["reason": .string(reason)]])
    }

    /// A `system` push on a channel (ref null, the join's ref as join_ref in 2.0.0).
    public static func system(
        topic: String, joinRef: String?, extension: String, status: ReplyStatus, message: String
    ) -> RealtimeMessage {
        RealtimeMessage(
            topic: topic, event: RealtimeEvent.system,
            payload: [
                "channel": .string(RealtimeTopic.channelName(of: topic) ?? topic),
                "extension": .string(`extension`),
                "status": .string(status.rawValue),
                "message": .string(message),
            ],
            ref: nil, joinRef: joinRef)
    }

    /// `phx_close` ending the join made with `joinRef`: payload `{}`, ref and join_ref both the join's.
    public static func close(topic: String, joinRef: String?) -> RealtimeMessage {
        RealtimeMessage(topic: topic, event: RealtimeEvent.close, payload: [:], ref: joinRef, joinRef: joinRef)
    }

    /// `phx_error` for an internal failure of the join made with `joinRef`.
    public static func channelError(topic: String, joinRef: String?) -> RealtimeMessage {
        RealtimeMessage(topic: topic, event: RealtimeEvent.error, payload: [:], ref: joinRef, joinRef: joinRef)
    }

    /// `status` of replies and system messages.
    public enum ReplyStatus: String, Sendable {
        case ok
        case error
    }
}

/// The `extension` names of `system` messages.
public enum RealtimeSystemExtension {
    public static let postgresChanges = "postgres_changes"
    public static let system = "system"
}
