import CompassHTTP
import Foundation
import Logging

/// How compass-worker writes its log lines (`COMPASS_LOG_FORMAT`).
public enum LogFormat: String, Sendable, CaseIterable {
    /// `2026-11-25T12:00:00.123Z info compass.worker: listening url=… request_id=…`
    case text
    /// One JSON object a line: `{"time":…,"level":…,"logger":…,"message":…,"request_id":…,…}`.
    case json
}

/// compass-worker's log handler: one line per entry on stderr, text or JSON, with the id of
/// the request being served (``RequestID/current``) on every line that request causes.
///
/// ```swift
/// LoggingSystem.bootstrap { label in WorkerLogHandler(label: label, format: .json, level: .info) }
/// ```
public struct WorkerLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    let label: String
    let format: LogFormat

    public init(label: String, format: LogFormat, level: Logger.Level) {
        self.label = label
        self.format = format
        self.logLevel = level
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        // Hummingbird's per-request key holds the same id; it is written once, as request_id.
        let hummingbirdID = fields.removeValue(forKey: RequestObservationMiddleware.logKey)
        if let id = RequestID.current ?? hummingbirdID.map({ "\($0)" }) { fields["request_id"] = .string(id) }
        let line = format == .json
            ? Self.jsonLine(time: Date(), level: event.level, label: label, message: "\(event.message)", fields: fields)
            : Self.textLine(time: Date(), level: event.level, label: label, message: "\(event.message)", fields: fields)
        // One write(2) per line, so lines from concurrent requests do not interleave.
        FileHandle.standardError.write(Data(line.utf8))
    }

    static func textLine(time: Date, level: Logger.Level, label: String, message: String, fields: Logger.Metadata) -> String {
        var line = "\(timestamp(time)) \(level) \(label): \(message)"
        for key in fields.keys.sorted() {
            line += " \(key)=\(fields[key]!)"
        }
        return line + "\n"
    }

    static func jsonLine(time: Date, level: Logger.Level, label: String, message: String, fields: Logger.Metadata) -> String {
        var object = fields.mapValues { "\($0)" }
        object["time"] = timestamp(time)
        object["level"] = "\(level)"
        object["logger"] = label
        object["message"] = message
        // Sorted keys, so lines diff well; encoding a [String: String] cannot fail.
        let data = (try? JSONReply.encoder.encode(object)) ?? Data(#"{"message":"unencodable log line"}"#.utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// `2026-11-25T12:00:00.123Z`, from the C library (no formatter to share between threads).
    static func timestamp(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        var whole = time_t(seconds.rounded(.down))
        let milliseconds = Int((seconds - Double(whole)) * 1000)
        var parts = tm()
        gmtime_r(&whole, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec), milliseconds)
    }
}
