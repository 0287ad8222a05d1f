import Foundation

/// A child process with stdout and stderr in files (posix_spawn, no pipes).
final class ChildProcess: Sendable {
    let pid: pid_t
    let outputPath: String

    init(_ arguments: [String], environment: [String: String] = [:], outputPath: String) throws {
        self.outputPath = outputPath
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard status == 0 else { throw BenchmarkError("cannot run \(arguments[0]): errno \(status)") }
        self.pid = pid
    }

    /// Runs to completion and returns the exit code and the output.
    static func run(_ arguments: [String]) async throws -> (code: Int32, output: String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UUID().uuidString).out").path
        let process = try ChildProcess(arguments, outputPath: path)
        let code = await process.waitForExit()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return (code, process.output)
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }

    /// True while the process runs.
    var isRunning: Bool {
        kill(pid, 0) == 0 && !exited()
    }

    private func exited() -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid
    }

    func waitForExit() async -> Int32 {
        while true {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { return (status >> 8) & 0xFF }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    func signal(_ number: Int32) {
        kill(pid, number)
    }

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

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
