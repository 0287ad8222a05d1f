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
        for argument in arguments {
            if argument == "--" { break }
            if let sub = command.configuration.subcommands.first(where: { $0._commandName == argument }) { command = sub }
        }
        let known = knownOptions(of: command, root: root)
        var takesValue = false
        for argument in arguments {
            if argument == "--" { break }
            // An option's value may itself start with `--` (`--page --3`): a bad value, not an option.
            if takesValue {
                takesValue = false
                continue
            }
            guard argument.hasPrefix("--") else { continue }
            let name = String(argument.split(separator: "=", maxSplits: 1)[0])
            guard known.names.contains(name) else { return name }
            takesValue = known.takingValues.contains(name) && !argument.contains("=")
        }
        return nil
    }

    /// Every `--name` the command's help lists (hidden ones included), the built-in ones, and
    /// those that take a value (`--page <page>`).
    private static func knownOptions(of command: any ParsableCommand.Type, root: any ParsableCommand.Type)
        -> (names: Set<String>, takingValues: Set<String>)
    {
        let help = root.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var names: Set<String> = ["--help", "--version", "--experimental-dump-help", "--generate-completion-script"]
        var takingValues: Set<String> = []
        let words = help.split(whereSeparator: { $0 == " " || $0 == "," || $0.isNewline })
            .map { $0.trimmingCharacters(in: ["[", "]", "(", ")", "."]) }
        for (index, word) in words.enumerated() where word.hasPrefix("--") {
            let name = String(word.split(separator: "=", maxSplits: 1)[0])
            names.insert(name)
            if index + 1 < words.count, words[index + 1].hasPrefix("<") { takingValues.insert(name) }
        }
        return (names, takingValues)
    }
}
