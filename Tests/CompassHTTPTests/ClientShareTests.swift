import Synchronization
import Testing

@testable import CompassHTTP

/// One address runs at most its share of requests at once; the rest wait their turn in its own
/// queue, and other addresses (and uncounted ones) are not held up by it.
@Suite("Client share of the pool")
struct ClientShareTests {
    @Test func anAddressPastItsShareWaitsWhileOthersRun() async throws {
        let share = ClientShare(limit: 2)
        let gateOpen = Shared(false)
        let finished = Shared(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            // Five requests of one address that hold their slot until the gate opens.
            for _ in 0..<5 {
                group.addTask {
                    try await share.withSlot(for: "203.0.113.7") {
                        while !gateOpen.value.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                        finished.value.withLock { $0 += 1 }
                    }
                }
            }
            try await waitFor { share.load(of: "203.0.113.7") == (2, 3) }
            // Another address and an uncounted one run at once.
            #expect(try await share.withSlot(for: "198.51.100.2") { 1 } == 1)
            #expect(try await share.withSlot(for: nil) { 2 } == 2)
            gateOpen.value.withLock { $0 = true }
            try await group.waitForAll()
        }
        #expect(finished.value.withLock { $0 } == 5)
        #expect(share.load(of: "203.0.113.7") == (0, 0), "every slot was given back")
    }

    @Test func aFailingRequestGivesItsSlotBack() async throws {
        struct Refused: Error {}
        let share = ClientShare(limit: 1)
        await #expect(throws: Refused.self) { try await share.withSlot(for: "203.0.113.7") { throw Refused() } }
        #expect(share.load(of: "203.0.113.7") == (0, 0))
        #expect(try await share.withSlot(for: "203.0.113.7") { "again" } == "again")
    }

    /// A value the test's tasks share.
    final class Shared<Value: Sendable>: Sendable {
        let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
    }

    private func waitFor(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { Issue.record("timed out"); return }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
