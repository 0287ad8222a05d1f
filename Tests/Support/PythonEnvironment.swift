import Foundation

/// A virtualenv with pinned PyPI packages, for end-to-end tests that drive the official
/// Supabase clients. Made on first use and reused; it fails (never skips) when pip cannot
/// install, since client compatibility is the promise those tests keep.
public enum PythonEnvironment {
    /// The `python` of a virtualenv holding `requirements` (e.g. `["supabase==2.34.1"]`).
    public static func python(with requirements: [String]) async throws -> String {
        let name = requirements.joined(separator: "-").map { $0.isLetter || $0.isNumber || $0 == "." ? $0 : "_" }
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("compass-e2e-venv-\(String(name))").path
        let python = venv + "/bin/python"
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
