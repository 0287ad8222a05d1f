import ArgumentParser
import Foundation

/// The first `--option` on a command line that its command does not have.
///
/// The argument parser decodes and validates a command before it looks for options nobody
/// used, so `compass feed --bogus` reported the missing `--user` (or the missing database)
/// instead of the typo. When a command line fails to parse, this names the typo first.
enum UnknownOption {
    static func find(in arguments: [String], root: any ParsableCommand.Type = CompassCommand.self) -> String? {
        var command = root
        var options: [String] = []
        for argument in arguments {
            if argument == "--" { break }
            if argument.hasPrefix("--") {
                options.append(String(argument.split(separator: "=", maxSplits: 1)[0]))
            } else if let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) {
                command = sub
            }
        }
        let known = knownOptions(of: command, root: root)
        return options.first { !known.contains($0) }
    }

    /// Every `--name` the command's help lists (hidden ones included), and the built-in ones.
    private static func knownOptions(of command: any ParsableCommand.Type, root: any ParsableCommand.Type) -> Set<String> {
        let help = root.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var names: Set<String> = ["--help", "--version", "--experimental-dump-help", "--generate-completion-script"]
        for word in help.split(whereSeparator: { $0 == " " || $0 == "," || $0.isNewline }) {
            let name = word.trimmingCharacters(in: ["[", "]", "(", ")", "."])
            if name.hasPrefix("--") { names.insert(String(name.split(separator: "=", maxSplits: 1)[0])) }
        }
        return names
    }
}
