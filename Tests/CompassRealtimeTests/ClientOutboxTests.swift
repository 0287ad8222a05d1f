import Testing

@testable import CompassRealtime

/// A client's queue is bounded in frames and in bytes: frames can carry megabyte-sized records.
@Suite("Client outbox bounds")
struct ClientOutboxTests {
    static func frame(_ bytes: Int) -> ClientOutbox.Frame { .init(text: String(repeating: "x", count: bytes)) }

    @Test func bytesWaitingPastTheLimitCloseTheClientButOneLargeFrameFits() {
        let outbox = ClientOutbox(clientID: 1, version: .v1, capacity: 1000, maximumBytes: 100)
        #expect(outbox.enqueue(Self.frame(60)) == .queued)
        #expect(outbox.enqueue(Self.frame(30)) == .queued)
        #expect(outbox.enqueue(Self.frame(20)) == .overflowed)
        #expect(outbox.isClosing)
        #expect(outbox.enqueue(Self.frame(1)) == .dropped)

        let large = ClientOutbox(clientID: 2, version: .v1, capacity: 1000, maximumBytes: 100)
        #expect(large.enqueue(Self.frame(150)) == .queued, "a first frame always fits")
        #expect(large.enqueue(Self.frame(1)) == .overflowed)
    }

    @Test func framesTakenForTheSocketNoLongerCount() {
        let outbox = ClientOutbox(clientID: 1, version: .v1, capacity: 1000, maximumBytes: 100)
        for _ in 0..<10 {
            #expect(outbox.enqueue(Self.frame(90)) == .queued)
            #expect(outbox.takeForSocket().frames.count == 1)
        }
        let counted = ClientOutbox(clientID: 2, version: .v1, capacity: 3)
        for _ in 0..<3 { #expect(counted.enqueue(Self.frame(1)) == .queued) }
        #expect(counted.enqueue(Self.frame(1)) == .overflowed, "the frame count still bounds it")
    }
}
