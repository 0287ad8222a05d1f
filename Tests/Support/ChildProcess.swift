import Foundation

/// A child process with its output in files — the one `posix_spawn` helper of the tests,
/// the test cluster and the benchmarks.
///
/// ```swift
/// let (code, output, _) = try await ChildProcess.run(["python3", "--version"])
/// ```
/// Files, not pipes: a child that outlives us (a PostgreSQL server started by
/// `scripts/pg-cluster` inherits the descriptors) could otherwise hold a pipe open forever.
/// `posix_spawn` and `waitpid` rather than Foundation's `Process`, which did not notice
/// such a child's exit.
public final class ChildProcess: Sendable {
    /// The child's process id.
    public let pid: pid_t
    /// Where its stdout goes.
    public let outputPath: String
    /// Where its stderr goes (the same file as stdout when merged).
    public let errorPath: String
    /// The files this object made up itself, removed when it goes away (a caller's
    /// `outputPath` is the caller's to keep).
    private let scratchFiles: [String]

    /// Starts `arguments[0]` (looked up in `PATH`) with the rest as arguments and `environment`
    /// added to ours. Output goes to `outputPath` (default: a fresh temporary file); stderr to
    /// its own temporary file, or into the output when `mergingErrors`.
    public init(
        _ arguments: [String], environment: [String: String] = [:], outputPath: String? = nil, mergingErrors: Bool = false
    ) throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)").path
        self.outputPath = outputPath ?? scratch + ".out"
        self.errorPath = mergingErrors ? self.outputPath : scratch + ".err"
        self.scratchFiles = [outputPath == nil ? self.outputPath : nil, mergingErrors ? nil : errorPath].compactMap { $0 }
        _ = FileManager.default.createFile(atPath: self.outputPath, contents: nil)
        if !mergingErrors { _ = FileManager.default.createFile(atPath: errorPath, contents: nil) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, self.outputPath, O_WRONLY | O_TRUNC, 0o600)
        if mergingErrors {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_TRUNC, 0o600)
        }
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
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(300)
    ) async throws -> (code: Int32, output: String, error: String) {
        let process = try ChildProcess(arguments, environment: environment)
        let code = try await process.exitCode(timeout: timeout)
        return (code, process.output, process.errorOutput)
    }

    /// Runs to completion, blocking the thread (for `atexit` handlers and other synchronous callers).
    public static func runBlocking(_ arguments: [String]) throws -> (code: Int32, output: String, error: String) {
        let process = try ChildProcess(arguments)
        var status: Int32 = 0
        while waitpid(process.pid, &status, 0) < 0 && errno == EINTR {}
        return (Self.exitCode(status), process.output, process.errorOutput)
    }

    /// What the child wrote to stdout so far.
    public var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    /// What the child wrote to stderr so far.
    public var errorOutput: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The exit code if the child has exited (reaping it), nil while it runs.
    public func exitCodeIfExited() -> Int32? {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid ? Self.exitCode(status) : nil
    }

    /// Waits for the exit; kills the child and throws after `timeout`.
    public func exitCode(timeout: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let code = exitCodeIfExited() { return code }
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
                throw HarnessError("\(pid) did not finish in time; stderr: \(errorOutput.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until stdout contains `text`; throws after `timeout` or if the child exits first.
    public func waitForOutput(containing text: String, timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while !output.contains(text) {
            if exitCodeIfExited() != nil {
                throw HarnessError("the child exited before printing \(text); stdout: \(output.suffix(2000)) stderr: \(errorOutput.suffix(3000))")
            }
            guard ContinuousClock.now < deadline else {
                throw HarnessError("no \(text) in time; stderr: \(errorOutput.suffix(3000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Sends `signal` (e.g. `SIGTERM` for a graceful stop).
    public func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Ends the child if it still runs.
    public func terminate() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, WNOHANG)
    }

    deinit {
        for path in scratchFiles { try? FileManager.default.removeItem(atPath: path) }
    }

    /// The shell's convention: the exit status, or 128 + the signal that ended the child.
    private static func exitCode(_ status: Int32) -> Int32 {
        (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }
}
