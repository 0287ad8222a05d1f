import Foundation

/// A child process with its output in files (no pipes: a child that outlives us cannot hang them).
public final class ChildProcess: Sendable {
    public let pid: pid_t
    public let outputPath: String
    public let errorPath: String

    /// Starts `arguments[0]` with the rest as arguments and `environment` added to ours.
    public init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        outputPath = scratch + ".out"
        errorPath = scratch + ".err"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_TRUNC, 0o600)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard status == 0 else { throw HarnessError("cannot run \(arguments[0]): errno \(status)") }
        self.pid = pid
    }

    /// Runs to completion (at most `timeout`) and returns the exit code with both outputs.
    public static func run(_ arguments: [String], timeout: Duration = .seconds(300)) async throws -> (code: Int32, output: String, error: String) {
        let process = try ChildProcess(arguments)
        let code = try await process.exitCode(timeout: timeout)
        return (code, process.output, process.errorOutput)
    }

    /// What the child wrote to stdout so far.
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// What the child wrote to stderr so far.
    public var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// Waits for the exit; kills the child and throws after `timeout`.
    public func exitCode(timeout: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                throw HarnessError("\(pid) did not finish in time; stderr: \(errorOutput.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until stdout contains `text`; throws after `timeout` or if the child exits first.
    public func waitForOutput(containing text: String, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while !output.contains(text) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                throw HarnessError("the child exited before printing \(text); stdout: \(output.suffix(2000)) stderr: \(errorOutput.suffix(3000))")
            }
            guard ContinuousClock.now < deadline else {
                throw HarnessError("no \(text) in time; stderr: \(errorOutput.suffix(3000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Ends the child if it still runs.
    public func terminate() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, WNOHANG)
    }
}
