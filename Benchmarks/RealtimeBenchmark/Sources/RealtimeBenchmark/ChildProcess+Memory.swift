import CompassTestSupport
import Foundation

extension ChildProcess {
    /// Resident set size now and at its peak, in MiB, from /proc.
    var memory: (resident: Double, peak: Double) {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return (.nan, .nan) }
        func kibibytes(_ field: String) -> Double {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }) else { return .nan }
            return Double(line.split(separator: " ").dropFirst().first { !$0.isEmpty }.map(String.init) ?? "") ?? .nan
        }
        return (kibibytes("VmRSS:") / 1024, kibibytes("VmHWM:") / 1024)
    }
}

/// Why the benchmark cannot go on.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
