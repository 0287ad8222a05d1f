import CompassTokens
import Logging
import Testing

@testable import CompassRealtime
@testable import Postgres

/// A batch matched before a client left or re-joined a topic is not queued after the change:
/// the client would get, after its new join reply, events carrying the old bindings' ids.
@Suite("Channels left or re-joined while a batch is in flight")
struct ChannelLivenessTests {
    let registry = SubscriptionRegistry()
    let dispatcher: RealtimeDispatcher
    let outbox: ClientOutbox
    let claims = VisibilityPlanTests.claims(.authenticated, "alice")

    init() throws {
        // Never connected: these tests only match and queue.
        let database = RealtimeDatabase(
            configuration: try PostgresConfiguration(url: "postgresql://nobody@127.0.0.1:1/none"), logger: Logger(label: "test"))
        dispatcher = RealtimeDispatcher(
            registry: registry, catalog: RealtimeCatalog(database: database), database: database, metrics: RealtimeMetrics(),
            logger: Logger(label: "test"))
        outbox = try #require(registry.addClient(version: .v1, capacity: 100))
    }

    func join(bindingID: Int, reply: String? = nil) {
        let binding = TableBinding(id: bindingID, changeType: nil, table: VisibilityPlanTests.notes.name, filter: nil)
        let frames = reply.map { [RealtimeMessage(topic: "realtime:notes", event: "phx_reply", payload: ["status": "ok"], ref: $0)] }
        registry.join(
            ChannelRecord(topic: "realtime:notes", joinRef: "1", claims: claims, bindings: [binding], outbox: outbox),
            queueing: frames ?? [])
    }

    /// The events queued on the client, in order, as (event name, ids).
    func sent() throws -> [(event: String, ids: [Int])] {
        try outbox.takeForSocket().frames.map { frame in
            let message = try RealtimeCodec.decode(frame.text)
            let ids = message.payload["ids"]?.arrayValue?.compactMap { id -> Int? in
                guard case .number(let text) = id else { return nil }
                return Int(text)
            } ?? []
            return (message.event, ids)
        }
    }

    @Test func aBatchMatchedBeforeARejoinIsNotQueuedBehindTheNewReply() async throws {
        join(bindingID: 7)
        let change = try VisibilityPlanTests.change(1, .insert, key: "a1")
        let matched = await registry.match([change])
        #expect(matched.first?.count == 1)

        join(bindingID: 8, reply: "2")  // the client re-joins the topic with other bindings
        dispatcher.queue(change, to: matched[0])

        #expect(try sent().map(\.event) == ["phx_reply"])
        // The new subscription gets the next change, with its own id.
        dispatcher.queue(change, to: await registry.match([change])[0])
        #expect(try sent().map(\.ids) == [[8]])
    }

    @Test func aBatchMatchedBeforeALeaveIsNotQueued() async throws {
        join(bindingID: 7)
        let change = try VisibilityPlanTests.change(1, .insert, key: "a1")
        let matched = await registry.match([change])
        _ = registry.leave(clientID: outbox.clientID, topic: "realtime:notes")
        dispatcher.queue(change, to: matched[0])
        #expect(try sent().isEmpty)
    }

    @Test func aTokenRefreshMeanwhileStillDelivers() async throws {
        join(bindingID: 7)
        let change = try VisibilityPlanTests.change(1, .insert, key: "a1")
        let matched = await registry.match([change])
        #expect(registry.updateClaims(clientID: outbox.clientID, topic: "realtime:notes", claims: claims))
        dispatcher.queue(change, to: matched[0])
        #expect(try sent().map(\.ids) == [[7]])

        // …and the refreshed record still ends with the channel.
        let again = await registry.match([change])
        _ = registry.leave(clientID: outbox.clientID, topic: "realtime:notes")
        dispatcher.queue(change, to: again[0])
        #expect(try sent().isEmpty)
    }
}
