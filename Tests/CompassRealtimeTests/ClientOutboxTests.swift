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
