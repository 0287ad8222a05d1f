import ArgumentParser
import Foundation

/// `--now`: the instant relative times, date ranges and the timeline's "today" are computed at.
///
/// Default: the current time. A fixed instant makes output reproducible (the `/api` parity
/// tests give the CLI and the server the same one).
struct ClockOptions: ParsableArguments {
    @Option(help: "Compute relative times and date ranges as of this ISO 8601 instant (default: now).")
    var now: Instant?

    /// The instant to use.
    var date: Date { now?.date ?? Date() }

    /// An ISO 8601 timestamp with a zone, fractional seconds optional.
    struct Instant: ExpressibleByArgument, Sendable {
        var date: Date

        init?(argument: String) {
            if let date = try? Date(argument, strategy: .iso8601) {
                self.date = date
            } else if let date = try? Date(argument, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
                self.date = date
            } else {
                return nil
            }
        }
    }
}
