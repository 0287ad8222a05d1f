import CompassData
import Foundation
import Synchronization

/// A one-line progress bar on stderr (redrawn in place on a terminal, one line per 10% otherwise).
///
/// The seeding loop reports from whichever task runs a batch; the `Mutex` makes each redraw
/// and the "which tenth was printed last" check one step, so lines never interleave.
final class ProgressBar: Sendable {
    private let enabled: Bool
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let start = Date()
    /// The last tenth printed when stderr is not a terminal (-1: none yet).
    private let lastDecile = Mutex(-1)

    /// A bar that draws only when `enabled`.
    init(enabled: Bool) { self.enabled = enabled }

    /// Draws `progress` (on a pipe or file, only when it reaches a new tenth).
    func show(_ progress: ScaleDataSet.Progress) {
        guard enabled, progress.totalBatches > 0 else { return }
        let fraction = Double(progress.completedBatches) / Double(progress.totalBatches)
        let width = 30
        let filled = Int(fraction * Double(width))
        let elapsed = Date().timeIntervalSince(start)
        let line = "[\(String(repeating: "#", count: filled))\(String(repeating: "-", count: width - filled))] "
            + "\(Int(fraction * 100))% \(progress.phase): \(progress.rows) rows, \(String(format: "%.1f", elapsed)) s"
        lastDecile.withLock { lastDecile in
            if isTerminal {
                FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
            } else {
                let decile = Int(fraction * 10)
                guard decile != lastDecile else { return }
                lastDecile = decile
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        }
    }

    /// Ends the redrawn line on a terminal.
    func finish() {
        if enabled && isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
