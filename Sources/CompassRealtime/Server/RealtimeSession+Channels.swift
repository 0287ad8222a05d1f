import CompassTokens

/// Joining, leaving and refreshing tokens on channels.
extension RealtimeSession {
    /// `phx_join`: verify the token, resolve the bindings, register, reply, confirm.
    func join(_ message: RealtimeMessage) async {
        guard let name = RealtimeTopic.channelName(of: message.topic) else {
            outbox.enqueue(RealtimeMessage.errorReply(to: message, reason: "unmatched topic"))
            return
        }
        guard !name.isEmpty else {
            outbox.enqueue(RealtimeMessage.errorReply(to: message, reason: "TopicNameRequired: You must provide a topic name"))
            return
        }
        let requested = message.payload["config"]?["postgres_changes"]?.arrayValue ?? []
        // Caps come before the token check, as in the reference: a refused join costs no verification.
        if let refusal = capRefusal(topic: message.topic, requested: requested) {
            outbox.enqueue(RealtimeMessage.errorReply(to: message, reason: refusal))
            return
        }
        let claims: AccessClaims
        do {
            claims = try await hub.verifier.verify(token(in: message.payload), expiry: .required)
        } catch {
            outbox.enqueue(RealtimeMessage.errorReply(to: message, reason: error.reason))
            return
        }

        let registry = hub.registry
        var entries: [RealtimeJSON] = []
        var bound: [TableBinding] = []
        var problems: [String] = []
        for json in requested {
            let binding = PostgresChangesBinding(requested: json)
            entries.append(binding.replyEntry)
            switch await hub.catalog.resolve(binding) {
            case .success(let tables): bound += tables
            case .failure(let problem): problems.append("\(binding.summary): \(problem.message)")
            }
        }

        var frames: [RealtimeMessage] = []
        if let previous = registry.channel(clientID: outbox.clientID, topic: message.topic) {
            frames.append(RealtimeMessage.close(topic: message.topic, joinRef: previous.joinRef))
        }
        frames.append(RealtimeMessage.reply(to: message, status: .ok, response: ["postgres_changes": .array(entries)]))
        // The reply answers the join's own ref; pushes carry the join's ref as their join_ref.
        let joinRef = message.ref ?? message.joinRef
        if !requested.isEmpty {
            if problems.isEmpty {
                frames.append(
                    RealtimeMessage.system(
                        topic: message.topic, joinRef: joinRef, extension: RealtimeSystemExtension.postgresChanges, status: .ok,
                        message: "Subscribed to PostgreSQL"))
            } else {
                frames.append(
                    RealtimeMessage.system(
                        topic: message.topic, joinRef: joinRef, extension: RealtimeSystemExtension.postgresChanges, status: .error,
                        message: "Unable to subscribe to changes with given parameters: " + problems.joined(separator: "; ")))
            }
        }
        if message.payload["config"]?["broadcast"]?["replication_ready"] == .bool(true) {
            frames.append(
                RealtimeMessage.system(
                    topic: message.topic, joinRef: joinRef, extension: RealtimeSystemExtension.system, status: .ok,
                    message: "Replication is ready"))
        }
        // A wildcard binds every table of its schema: the limits count what the join binds.
        let record = ChannelRecord(topic: message.topic, joinRef: joinRef, claims: claims, bindings: bound, outbox: outbox)
        if case .refused(let limit) = registry.join(record, queueing: frames, limits: hub.configuration.bindingLimits) {
            outbox.enqueue(RealtimeMessage.errorReply(to: message, reason: limit.reason))
        }
    }

    /// `phx_leave`: reply ok, then close the join.
    func leave(_ message: RealtimeMessage) {
        guard let channel = hub.registry.leave(clientID: outbox.clientID, topic: message.topic) else {
            outbox.enqueue(RealtimeMessage.errorReply(to: message, reason: "unmatched topic"))
            return
        }
        outbox.enqueue(RealtimeMessage.reply(to: message, status: .ok))
        outbox.enqueue(RealtimeMessage.close(topic: channel.topic, joinRef: channel.joinRef))
    }

    /// `access_token`: adopt a valid new token; end the channel on an invalid one. No reply.
    func refreshToken(_ message: RealtimeMessage) async {
        let registry = hub.registry
        guard let channel = registry.channel(clientID: outbox.clientID, topic: message.topic),
            case .string(let token)? = message.payload["access_token"], !token.hasPrefix("sb_")
        else { return }
        do {
            let claims = try await hub.verifier.verify(token, expiry: .required)
            registry.updateClaims(clientID: outbox.clientID, topic: message.topic, claims: claims)
        } catch {
            guard registry.leave(clientID: outbox.clientID, topic: message.topic) != nil else { return }
            outbox.enqueue(
                RealtimeMessage.system(
                    topic: channel.topic, joinRef: channel.joinRef, extension: RealtimeSystemExtension.system, status: .error,
                    message: error.reason))
            outbox.enqueue(RealtimeMessage.close(topic: channel.topic, joinRef: channel.joinRef))
        }
    }

    /// Why a join exceeds the connection's channel cap, the per-join binding cap or the size of a
    /// topic or filter, or nil. The binding caps count bindings, so their size is bounded here: a
    /// 250 KB filter or topic per channel let one address hold gigabytes.
    private func capRefusal(topic: String, requested: [RealtimeJSON]) -> String? {
        let configuration = hub.configuration
        let registry = hub.registry
        let bindingCount = requested.count
        if topic.utf8.count > RealtimeConfiguration.maximumTopicBytes {
            return "TopicTooLong: a topic may be at most \(RealtimeConfiguration.maximumTopicBytes) bytes"
        }
        let longFilter = requested.contains { ($0["filter"]?.stringValue?.utf8.count ?? 0) > RealtimeConfiguration.maximumFilterBytes }
        if longFilter {
            return "PostgresChangesLimitReached: a filter may be at most \(RealtimeConfiguration.maximumFilterBytes) bytes"
        }
        let rejoining = registry.channel(clientID: outbox.clientID, topic: topic) != nil
        if !rejoining, registry.channelCount(clientID: outbox.clientID) >= configuration.maximumChannelsPerConnection {
            return "ChannelRateLimitReached: Too many channels (at most \(configuration.maximumChannelsPerConnection) per connection)"
        }
        if bindingCount > configuration.maximumBindingsPerJoin {
            return "PostgresChangesLimitReached: Too many postgres_changes bindings "
                + "(\(bindingCount) sent, at most \(configuration.maximumBindingsPerJoin) per join)"
        }
        return nil
    }

    /// The join's token: `access_token` (or legacy `user_token`), else the connection's `apikey`.
    private func token(in payload: RealtimeJSON) -> String {
        for key in ["access_token", "user_token"] {
            if case .string(let token)? = payload[key], !token.isEmpty, !token.hasPrefix("sb_") { return token }
        }
        return connectionToken
    }
}
