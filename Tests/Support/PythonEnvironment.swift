import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A virtualenv with pinned PyPI packages, for end-to-end tests that drive the official
/// Supabase clients. Made on first use and reused; it fails (never skips) when pip cannot
/// install, since client compatibility is the promise those tests keep.
public enum PythonEnvironment {
    /// The `python` of a virtualenv holding `requirements` (e.g. `["supabase==2.34.1"]`).
    public static func python(with requirements: [String]) async throws -> String {
        let name = requirements.joined(separator: "-").map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" }
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("compass-e2e-venv-\(String(name))").path
        let python = venv + "/bin/python"
        // Tests in parallel (and in child processes) share the venv: one makes it and installs
        // into it at a time, or another finds `bin/python` before pip is in place.
        let lock = try await VenvLock.acquire(venv + ".lock")
        defer { lock.release() }
        if !FileManager.default.isExecutableFile(atPath: python) {
            let created = try await ChildProcess.run(["python3", "-m", "venv", venv], timeout: .seconds(120))
            guard created.code == 0 else {
                throw HarnessError("python3 -m venv failed (\(created.code)): \(created.error.suffix(2000))")
            }
        }
        let installed = try await ChildProcess.run(
            [python, "-m", "pip", "install", "--disable-pip-version-check", "--quiet"] + requirements,
            timeout: .seconds(600))
        guard installed.code == 0 else {
            throw HarnessError("pip install \(requirements.joined(separator: " ")) failed (\(installed.code)): \(installed.error.suffix(2000))")
        }
        return python
    }
}

/// An exclusive `flock` on a file, waited for without blocking a thread of the cooperative pool.
private struct VenvLock {
    let descriptor: Int32

    static func acquire(_ path: String) async throws -> VenvLock {
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw HarnessError("cannot open \(path): errno \(errno)") }
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                close(descriptor)
                throw HarnessError("cannot lock \(path): errno \(errno)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return VenvLock(descriptor: descriptor)
    }

    func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
