#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Hands freed heap back to the system after a burst of disconnects, at most once per interval.
///
/// ```swift
/// let trimmer = HeapTrimmer(disconnects: 64, interval: .seconds(5))
/// trimmer.trimIfDue(departures: registry.takeDepartures())
/// ```
/// glibc's malloc keeps freed memory in its per-thread arenas: after thousands of
/// connections close, the worker stayed tens of megabytes larger although nothing used
/// that memory. `malloc_trim(0)` releases the free pages of every arena. It is looked up
/// at run time because the `Glibc` module does not import `malloc.h`; elsewhere (musl,
/// Darwin) it is absent and trimming does nothing.
final class HeapTrimmer: Sendable {
    private typealias MallocTrim = @convention(c) (Int) -> Int32

    private let disconnects: Int
    private let interval: Duration
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
    }

    /// Trims once `disconnects` clients have left since the last trim, and never twice within `interval`.
    init(disconnects: Int, interval: Duration) {
        self.disconnects = max(1, disconnects)
        self.interval = interval
    }

    /// True when this process can trim (glibc).
    static var isAvailable: Bool { mallocTrim != nil }

    /// Adds `departures` to the count and trims if enough have gone and the last trim is old enough; true if it trimmed.
    @discardableResult
    func trimIfDue(departures: Int, now: ContinuousClock.Instant = .now) -> Bool {
        let due = state.withLock { state -> Bool in
            state.pendingDepartures += departures
            guard state.pendingDepartures >= disconnects else { return false }
            if let last = state.lastTrim, now - last < interval { return false }
            state.pendingDepartures = 0
            state.lastTrim = now
            return true
        }
        guard due, let trim = Self.mallocTrim else { return false }
        _ = trim(0)
        return true
    }
}
