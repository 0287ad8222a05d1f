import CompassTokens
import Foundation

/// Where `compass token` and `compass keys` get the worker's signing secret.
///
/// ```sh
/// compass token --user …                 # COMPASS_JWT_SECRET, else the one `make run` wrote
/// ```
/// `COMPASS_JWT_SECRET` when it is set; when it is not, the secret `make run` gave its worker,
/// from `.data/compass.env` in the checkout (found walking up from the working directory).
/// A secret set but empty, or too short for HS256, is refused, saying why.
enum JWTSecretSource {
    /// The file `make run` writes (mode 600): `DATABASE_URL`, `COMPASS_JWT_SECRET`, host and port.
    static let environmentFile = ".data/compass.env"

    /// The secret, or bad input naming what is missing or wrong.
    static func resolve(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        from directory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    ) throws(CLIFailure) -> String {
        let secret: String
        if let fromEnvironment = environment["COMPASS_JWT_SECRET"] {
            guard !fromEnvironment.isEmpty else { throw .badInput("COMPASS_JWT_SECRET is empty: set it to the worker's secret") }
            secret = fromEnvironment
        } else if let fromFile = fileSecret(from: directory) {
            secret = fromFile
        } else {
            throw .badInput(
                "COMPASS_JWT_SECRET is not set, and there is no \(environmentFile) from `make run` here: "
                    + "export the worker's secret (or run `set -a; . \(environmentFile); set +a` in the checkout)")
        }
        do throws(JWTSecretError) {
            try JWTSecretError.check(secret)
        } catch {
            throw .badInput(error.description)
        }
        return secret
    }

    /// `COMPASS_JWT_SECRET` from the nearest `.data/compass.env` at or above `directory`.
    static func fileSecret(from directory: URL) -> String? {
        var folder = directory.standardizedFileURL
        while true {
            let file = folder.appendingPathComponent(environmentFile)
            if let text = try? String(contentsOf: file, encoding: .utf8) {
                return value(of: "COMPASS_JWT_SECRET", in: text)
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// `NAME='value'` (or unquoted) from a shell environment file.
    static func value(of name: String, in text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(name + "=") {
            let raw = line.dropFirst(name.count + 1)
            let unquoted = raw.count >= 2 && raw.first == "'" && raw.last == "'" ? raw.dropFirst().dropLast() : raw
            return unquoted.isEmpty ? nil : String(unquoted)
        }
        return nil
    }
}
