import CompassData
import Postgres

/// A failure the CLI reports in one line, with its exit code (1 runtime, 2 bad input).
struct CLIFailure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32

    /// Bad input found after parsing (e.g. a user that does not exist): exit 2.
    static func badInput(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 2) }
    /// A database or runtime failure: exit 1.
    static func runtime(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 1) }

    var description: String { message }

    /// One line for any error; Postgres errors use their value-free description.
    static func describe(_ error: any Error) -> String {
        let text: String
        switch error {
        case let error as PostgresError: text = error.description
        default: text = String(describing: error)
        }
        return text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
    }
}
