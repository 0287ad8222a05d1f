import Foundation
import Postgres

/// CPU time (user + system) spent by processes on this machine, read from /proc.
///
/// The fan-out's cost per delivery, split between the worker and the database sessions
/// it opened (the RLS checks and change reads), is what carries over to other machines;
/// deliveries per second on this 2-core box also pay for the inserts and the clients.
enum CPUTime {
    /// Seconds of CPU `pid` has used, or nil when it is not a local process.
    static func seconds(of pid: pid_t) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.lastIndex(of: ")")
        else { return nil }
        // Fields after "(comm)": state is field 3, utime 14 and stime 15.
        let fields = stat[stat.index(after: afterName)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The server pids of the worker's sessions (its `application_name` starts with compass-worker).
    static func workerSessionPIDs(_ connection: PostgresConnection) async throws -> [pid_t] {
        let rows = try await connection.query(
            "SELECT pid FROM pg_stat_activity WHERE application_name LIKE 'compass-worker%' AND pid <> pg_backend_pid()")
        return try rows.map { pid_t(try $0.decode(Int32.self, at: 0)) }
    }

    /// CPU seconds per process now, for the processes that can be read.
    static func snapshot(_ pids: [pid_t]) -> [pid_t: Double] {
        var seconds: [pid_t: Double] = [:]
        for pid in pids { seconds[pid] = Self.seconds(of: pid) }
        return seconds
    }

    /// CPU seconds used since `earlier` by `pids` (a process missing from `earlier` started
    /// after it, from zero); nil when none of them can be read.
    static func used(by pids: [pid_t], since earlier: [pid_t: Double]) -> Double? {
        let now = snapshot(pids)
        guard !now.isEmpty else { return nil }
        return now.reduce(0) { $0 + $1.value - (earlier[$1.key] ?? 0) }
    }
}
