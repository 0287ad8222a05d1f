import Logging
import Synchronization

/// Every log line a logger writes, with its metadata, kept in memory for a test to search.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    /// A logger at `trace` writing here.
    func logger() -> Logger {
        var logger = Logger(label: "captured") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    /// Everything written so far, one line per entry.
    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { $1 }
            log.append("\(event.level) \(event.message) \(all) \(event.source) \(event.file):\(event.line)")
        }
    }
}
