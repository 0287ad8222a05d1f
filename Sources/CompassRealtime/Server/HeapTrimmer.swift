#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Hands freed heap back to the system after a burst of disconnects, at most once per interval,
/// once more when the burst has been quiet for `settle`, and a while after a few disconnects.
///
/// ```swift
/// let trimmer = HeapTrimmer(disconnects: 64, interval: .seconds(5), settle: .seconds(10))
/// trimmer.trimIfDue(departures: registry.takeDepartures())
/// ```
/// glibc's malloc keeps freed memory in its per-thread arenas: after thousands of
/// connections close, the worker stayed tens of megabytes larger although nothing used
/// that memory. `malloc_trim(0)` releases the free pages of every arena. It is looked up
/// at run time because the `Glibc` module does not import `malloc.h`; elsewhere (musl,
/// Darwin) it is absent and trimming does nothing.
///
/// The second trim is there because a closed connection's memory is not all freed when the
/// registry forgets it: timers of the WebSocket close handshake still hold small blocks for a
/// few seconds, and each such block keeps a whole page of its arena resident. Measured on the
/// release worker (2,000 connections opened, then closed): one trim left it 26 MiB larger than
/// before the burst; a trim once those timers had fired, 3 MiB.
final class HeapTrimmer: Sendable {
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    private let disconnects: Int
    private let interval: Duration
    private let settle: Duration
    private let lone: Duration
    private let state = Mutex(State())
    private static let mallocTrim: MallocTrim? = {
        #if canImport(Glibc)
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: MallocTrim.self)
        #else
        return nil
        #endif
    }()

    private struct State {
        var pendingDepartures = 0
        var lastTrim: ContinuousClock.Instant?
        /// When the follow-up trim of the last burst is due; later departures push it back.
        var followUp: ContinuousClock.Instant?
    }

    /// Trims once `disconnects` clients have left since the last trim, never twice within `interval`,
    /// once more after a burst when no client has left for `settle`, and `lone` after fewer left:
    /// forty clients holding 25 MB each freed a gigabyte that stayed resident until the next burst.
    init(disconnects: Int, interval: Duration, settle: Duration, lone: Duration = .seconds(60)) {
        self.disconnects = max(1, disconnects)
        self.interval = interval
        self.settle = settle
        self.lone = lone
    }

    /// True when this process can trim (glibc).
    static var isAvailable: Bool { mallocTrim != nil }

    /// Adds `departures` to the count and trims if enough have gone (or a burst's follow-up is due)
    /// and the last trim is old enough; true if it trimmed.
    @discardableResult
    func trimIfDue(departures: Int, now: ContinuousClock.Instant = .now) -> Bool {
        let due = state.withLock { state -> Bool in
            state.pendingDepartures += departures
            if departures > 0 {
                // A burst's follow-up moves with each straggler; a few departures get one a while later.
                state.followUp = state.followUp.map { _ in now + settle } ?? now + lone
            }
            if let last = state.lastTrim, now - last < interval { return false }
            if state.pendingDepartures >= disconnects {
                state.followUp = now + settle
            } else if let followUp = state.followUp, now >= followUp {
                state.followUp = nil
            } else {
                return false
            }
            state.pendingDepartures = 0
            state.lastTrim = now
            return true
        }
        guard due, let trim = Self.mallocTrim else { return false }
        _ = trim(0)
        return true
    }
}
