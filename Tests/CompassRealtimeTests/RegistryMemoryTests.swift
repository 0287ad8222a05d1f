import CompassTokens
import Foundation
import Testing

@testable import CompassRealtime

/// What a burst of clients leaves behind once they are gone: no oversized maps, a heap trim.
@Suite("Memory returned after bursts")
struct RegistryMemoryTests {
    static let table = RealtimeTableName(schema: "public", table: "interactions")
    static let claims = AccessClaims(
        role: .authenticated, subject: nil, expiresAt: Date().addingTimeInterval(3600), claimsJSON: #"{"role":"authenticated"}"#)

    /// One filtered (indexed by value) and one unfiltered (scanned) binding.
    static func bindings(for client: Int) throws -> [TableBinding] {
        let filter = try #require(try RealtimeFilter(parsing: "content=eq.client-\(client)"))
        return [
            TableBinding(id: 1, changeType: nil, table: table, filter: try CompiledRealtimeFilter(filter, kind: .text)),
            TableBinding(id: 2, changeType: .insert, table: table, filter: nil),
        ]
    }

    @Test func theRegistryShrinksAfterClientsLeave() throws {
        let registry = SubscriptionRegistry()
        var outboxes: [ClientOutbox] = []
        for client in 0..<5_000 {
            let outbox = try #require(registry.addClient(version: .v1, capacity: 10))
            for topic in ["realtime:a", "realtime:b"] {
                registry.join(
                    ChannelRecord(topic: topic, joinRef: "1", claims: Self.claims, bindings: try Self.bindings(for: client), outbox: outbox),
                    queueing: [])
            }
            outboxes.append(outbox)
        }
        let peak = registry.storageCapacity
        #expect(peak.clients >= 5_000 && peak.channels >= 10_000)

        for outbox in outboxes.dropFirst(10) { registry.removeClient(outbox.clientID) }
        let after = registry.storageCapacity
        #expect(after.clients <= 64, "client map kept \(after.clients) slots for 10 clients")
        #expect(after.channels <= 64, "channel map kept \(after.channels) slots for 20 channels")
        #expect(registry.counts == (clients: 10, channels: 20, bindings: 40))
        #expect(registry.takeDepartures() == 4_990)
        #expect(registry.takeDepartures() == 0)

        // The rebuilt maps still know the survivors.
        #expect(registry.channelCount(clientID: outboxes[0].clientID) == 2)
        for outbox in outboxes.prefix(10) { registry.removeClient(outbox.clientID) }
        #expect(registry.counts == (clients: 0, channels: 0, bindings: 0))
        #expect(registry.storageCapacity.tables <= 64)
    }

    @Test func theHeapIsTrimmedAfterABurstOnceMoreWhenItSettlesAndAMinuteAfterAFewDepartures() {
        let trimmer = HeapTrimmer(disconnects: 10, interval: .seconds(5), settle: .seconds(10))
        let start = ContinuousClock.now
        let trims = HeapTrimmer.isAvailable
        #expect(!trimmer.trimIfDue(departures: 9, now: start))
        #expect(trimmer.trimIfDue(departures: 1, now: start) == trims)
        #expect(!trimmer.trimIfDue(departures: 50, now: start + .seconds(1)))
        #expect(trimmer.trimIfDue(departures: 0, now: start + .seconds(6)) == trims)
        // Stragglers push the follow-up back: it comes 10 s after the last departure.
        #expect(!trimmer.trimIfDue(departures: 3, now: start + .seconds(8)))
        #expect(!trimmer.trimIfDue(departures: 0, now: start + .seconds(17)))
        #expect(trimmer.trimIfDue(departures: 0, now: start + .seconds(18)) == trims)
        // One follow-up per burst; a lone departure later trims a minute after it.
        #expect(!trimmer.trimIfDue(departures: 0, now: start + .seconds(60)))
        #expect(!trimmer.trimIfDue(departures: 1, now: start + .seconds(61)))
        #expect(!trimmer.trimIfDue(departures: 0, now: start + .seconds(90)))
        #expect(trimmer.trimIfDue(departures: 0, now: start + .seconds(121)) == trims)
        #expect(!trimmer.trimIfDue(departures: 0, now: start + .seconds(300)))
        // Another departure while one is pending trims `settle` after the last of them.
        #expect(!trimmer.trimIfDue(departures: 1, now: start + .seconds(301)))
        #expect(!trimmer.trimIfDue(departures: 1, now: start + .seconds(330)))
        #expect(trimmer.trimIfDue(departures: 0, now: start + .seconds(340)) == trims)
        #expect(HeapTrimmer.isAvailable, "glibc's malloc_trim was not found")
    }
}
