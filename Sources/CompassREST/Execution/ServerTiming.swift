import HTTPTypes
import Hummingbird
import Synchronization

/// PostgREST's `Server-Timing` header (`server-timing-enabled`): how long a request spent
/// verifying its token, parsing, planning, in its transaction and building the reply, in
/// milliseconds. Off unless `COMPASS_REST_SERVER_TIMING=true`: it tells clients how long the
/// database took.
///
/// ```swift
/// let timing = ServerTiming()
/// // … timing.mark(.jwt) after each phase; the executor marks the plan and transaction of the
/// // request's `timing` …
/// return Optional(timing).stamped(response)
/// ```
final class ServerTiming: Sendable {
    /// The phases, in the order they happen and are named in the header.
    enum Phase: String, CaseIterable {
        case jwt, parse, plan, transaction, response
    }

    private struct State {
        var last: ContinuousClock.Instant
        var durations: [Phase: Duration] = [:]
    }

    private let state: Mutex<State>

    init(started: ContinuousClock.Instant = .now) {
        state = Mutex(State(last: started))
    }

    /// Ends `phase` now: it lasted since the end of the one before.
    func mark(_ phase: Phase) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.durations[phase, default: .zero] += now - state.last
            state.last = now
        }
    }

    /// `jwt;dur=0.4, parse;dur=0.5, …`: the phases that were marked, in milliseconds to a tenth.
    var header: String {
        let durations = state.withLock { $0.durations }
        return Phase.allCases.compactMap { phase in
            durations[phase].map { phase.rawValue + ";dur=" + Self.milliseconds($0) }
        }.joined(separator: ", ")
    }

    static func milliseconds(_ duration: Duration) -> String {
        // A tenth of a millisecond is 10^14 attoseconds.
        let tenths = duration.components.seconds * 10_000 + duration.components.attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension Optional where Wrapped == ServerTiming {
    /// `response` with the `Server-Timing` header, the reply's own phase ended now; as it is when timing is off.
    func stamped(_ response: Response) -> Response {
        guard let timing = self else { return response }
        timing.mark(.response)
        var response = response
        response.headers[HTTPField.Name("Server-Timing")!] = timing.header
        return response
    }
}
