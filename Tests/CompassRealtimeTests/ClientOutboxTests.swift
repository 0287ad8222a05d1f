import CompassHTTP
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

    /// Unread sockets together are bounded too: past the shared total, a client with a backlog is
    /// closed at its next frame, while a client that keeps up still gets its frames.
    @Test func allOutboxesTogetherStayWithinTheSharedBudget() {
        let budget = ByteBudget(limit: 200)
        let stalled = ClientOutbox(clientID: 1, version: .v1, capacity: 1000, maximumBytes: 1000, budget: budget)
        let other = ClientOutbox(clientID: 2, version: .v1, capacity: 1000, maximumBytes: 1000, budget: budget)
        let reading = ClientOutbox(clientID: 3, version: .v1, capacity: 1000, maximumBytes: 1000, budget: budget)
        #expect(stalled.enqueue(Self.frame(90)) == .queued)
        #expect(other.enqueue(Self.frame(90)) == .queued)
        #expect(budget.heldBytes == 180)
        #expect(stalled.enqueue(Self.frame(90)) == .overflowed, "its own bound (1000) allows it; the total does not")
        #expect(budget.heldBytes == 90, "the dropped backlog is released")
        // A client with nothing waiting always gets its frame, and what the socket takes is released.
        #expect(reading.enqueue(Self.frame(150)) == .queued)
        #expect(budget.heldBytes == 240)
        #expect(reading.takeForSocket().frames.count == 1)
        #expect(budget.heldBytes == 90)
        #expect(other.enqueue(Self.frame(90)) == .queued)
        // An outbox that goes away with frames never taken releases them.
        var gone: ClientOutbox? = ClientOutbox(clientID: 4, version: .v1, capacity: 10, budget: budget)
        #expect(gone?.enqueue(Self.frame(5)) == .queued)
        #expect(budget.heldBytes == 185)
        gone = nil
        #expect(budget.heldBytes == 180)
        _ = gone
    }

    /// The socket takes a bounded share at a time: the rest stays counted in the outbox (and the
    /// shared budget), where a client that stops reading is seen and closed.
    @Test func theSocketTakesABoundedShareAtATime() {
        let budget = ByteBudget(limit: 10_000)
        let outbox = ClientOutbox(clientID: 1, version: .v1, capacity: 1000, maximumBytes: 10_000, budget: budget)
        for size in [100, 100, 100, 500] { #expect(outbox.enqueue(Self.frame(size)) == .queued) }
        let first = outbox.takeForSocket(upTo: 250)
        #expect(first.frames.map(\.text.utf8.count) == [100, 100])
        #expect(first.more)
        #expect(budget.heldBytes == 600)
        let second = outbox.takeForSocket(upTo: 250)
        #expect(second.frames.map(\.text.utf8.count) == [100], "the next frame would pass the share")
        let third = outbox.takeForSocket(upTo: 250)
        #expect(third.frames.map(\.text.utf8.count) == [500], "a larger frame goes alone")
        #expect(!third.more)
        #expect(budget.heldBytes == 0)
        #expect(outbox.queuedCount == 0)
    }

    /// A sink that holds its outbox, as the socket's writer does.
    final class HoldingSink: ClientOutboxSink {
        let outbox: ClientOutbox
        init(_ outbox: ClientOutbox) { self.outbox = outbox }
        func framesWaiting() {}
    }

    @Test func detachingFreesTheOutboxAndItsSink() {
        weak var freedOutbox: ClientOutbox?
        weak var freedSink: HoldingSink?
        do {
            let outbox = ClientOutbox(clientID: 3, version: .v1, capacity: 10)
            let sink = HoldingSink(outbox)
            outbox.attach(sink)
            freedOutbox = outbox
            freedSink = sink
            outbox.detach()  // what a session does once its connection has ended
        }
        #expect(freedOutbox == nil, "the outbox outlived its connection")
        #expect(freedSink == nil)
    }
}
