import ArgumentParser
import CompassData
import Foundation
import Postgres

/// The `compass` admin CLI: migrations, demo and scale data, and the apps' data under a user's RLS scope.
///
/// ```sh
/// compass feed --user a1000000-0000-4000-8000-000000000003 --json
/// ```
/// Exit codes: 0 success, 1 database or runtime error, 2 bad input; failures print one line on stderr.
@main
struct CompassCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compass",
        abstract: "Admin CLI for the Compass backend.",
        version: CompassVersion.current,
        subcommands: [
            MigrateCommand.self,
            SeedCommand.self,
            FeedCommand.self,
            TimelineCommand.self,
            InteractionsCommand.self,
            NotificationsCommand.self,
            FamilyActivityCommand.self,
            TokenCommand.self, KeysCommand.self,
            UsersCommand.self,
            ListenCommand.self,
        ]
    )

    /// Parses, runs, and maps every failure to exit code 1 or 2 with a one-line message.
    static func main() async {
        let code = await run(arguments: Array(CommandLine.arguments.dropFirst()))
        Foundation.exit(code)
    }

    /// Runs one command line and returns the process exit code (no `exit` call, so tests can use it).
    static func run(arguments: [String]) async -> Int32 {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            return report(parsingFailure: error, arguments: arguments)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var command = command
                try command.run()
            }
            return 0
        } catch {
            return report(runFailure: error)
        }
    }

    /// Help and version requests print and succeed; argument errors are bad input (2), an
    /// unknown option named before anything else.
    private static func report(parsingFailure error: any Error, arguments: [String] = []) -> Int32 {
        if exitCode(for: error) != .success, let unknown = UnknownOption.find(in: arguments) {
            printError("Unknown option '\(unknown)'")
            return 2
        }
        switch exitCode(for: error) {
        case .success:
            print(fullMessage(for: error))
            return 0
        case .validationFailure:
            printError(oneLine(message(for: error)))
            return 2
        case let code:
            printError(oneLine(message(for: error)))
            return code.rawValue
        }
    }

    /// Our failures carry their code; database and other errors are runtime failures (1).
    private static func report(runFailure error: any Error) -> Int32 {
        switch error {
        case let failure as CLIFailure:
            printError(failure.message)
            return failure.exitCode
        case let code as ExitCode:
            return code.rawValue
        case is PostgresError, is MigrationError:
            printError(CLIFailure.describe(error))
            return 1
        default:
            if exitCode(for: error) == .failure {
                printError(CLIFailure.describe(error))
                return 1
            }
            return report(parsingFailure: error)
        }
    }

    /// The first line of an argument-parser message; a bulleted list of valid values is folded into it.
    static func oneLine(_ message: String) -> String {
        let lines = message.split(whereSeparator: \.isNewline).map(String.init)
        var line = lines.first ?? message
        if line.hasPrefix("Error: ") { line.removeFirst("Error: ".count) }
        if line.hasSuffix("one of the following:") {
            let values = lines.dropFirst()
                .map { $0.trimmingCharacters(in: .whitespaces) }
                .prefix { $0.hasPrefix("- ") }
                .map { "'\($0.dropFirst(2))'" }
            line = String(line.dropLast("the following:".count)) + values.joined(separator: ", ") + "."
        }
        return line
    }
}

/// Writes `error: <message>` on stderr.
func printError(_ message: String) {
    let text = message.hasPrefix("error:") ? message : "error: \(message)"
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
