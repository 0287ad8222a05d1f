import ArgumentParser
import Foundation
import Testing

@testable import CompassCLI

/// Parsing and validation only: no database is contacted.
@Suite("compass command-line parsing")
struct ParsingTests {
    static let url = ["--database-url", "postgresql://compass@localhost:1/compass"]
    static let sofia = "a1000000-0000-4000-8000-000000000003"
    static let rivera = "f1000000-0000-4000-8000-000000000001"

    /// Parses a full command line; the error message is what the user would read.
    private func parse(_ arguments: [String]) throws -> any ParsableCommand {
        try CompassCommand.parseAsRoot(arguments + Self.url)
    }

    private func message(_ arguments: [String]) -> String? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return CompassCommand.message(for: error)
        }
    }

    @Test func everyCommandParses() throws {
        let lines: [[String]] = [
            ["migrate"], ["migrate", "--status"], ["seed", "demo"], ["seed", "scale", "--users", "100"],
            ["feed", "--user", Self.sofia, "--type", "interaction", "--range", "week", "--search", "ucla", "--page", "2"],
            ["feed", "--user", Self.sofia, "--widget", "--json"],
            ["timeline", "--user", Self.sofia, "--range", "3", "--hide", "event,status_change"],
            ["interactions", "--user", Self.sofia, "--type", "email", "--direction", "inbound", "--sentiment", "positive",
             "--days", "30", "--search", "coach"],
            ["interactions", "--user", Self.sofia, "--parent", "--family", Self.rivera, "--logged-by", Self.sofia],
            ["notifications", "list", "--user", Self.sofia], ["notifications", "unread", "--user", Self.sofia],
            ["notifications", "read", Self.sofia, Self.rivera, "--user", Self.sofia],
            ["notifications", "read-all", "--user", Self.sofia],
            ["notifications", "delete", Self.rivera, "--user", Self.sofia],
            ["notifications", "clear", "--user", Self.sofia],
            ["family-activity", "--user", Self.sofia, "--limit", "5"],
        ]
        for line in lines {
            #expect(throws: Never.self, "\(line)") { _ = try parse(line) }
        }
    }

    @Test func parsedValuesReachTheCommand() throws {
        let feed = try #require(try parse(["feed", "--user", Self.sofia, "--type", "status", "--page", "3"]) as? FeedCommand)
        #expect(feed.user == UUID(uuidString: Self.sofia))
        #expect(feed.type?.type == .schoolStatusChange)
        #expect(feed.page == 3)
        let timeline = try #require(try parse(["timeline", "--user", Self.sofia, "--hide", "offer"]) as? TimelineCommand)
        #expect(timeline.hide?.types == [.offer])
        #expect(timeline.range == .sixMonths)
    }

    @Test func aMalformedUUIDIsRefusedByName() {
        #expect(message(["feed", "--user", "not-a-uuid"])?.contains("'not-a-uuid'") == true)
        #expect(message(["notifications", "delete", "12345", "--user", Self.sofia])?.contains("'12345'") == true)
        #expect(message(["timeline", "--user", Self.sofia, "--school", "x"])?.contains("'x'") == true)
    }

    @Test func unknownEnumValuesAreRefusedByName() {
        #expect(message(["feed", "--user", Self.sofia, "--type", "likes"])?.contains("'likes'") == true)
        #expect(message(["feed", "--user", Self.sofia, "--range", "decade"])?.contains("'decade'") == true)
        #expect(message(["timeline", "--user", Self.sofia, "--range", "5"])?.contains("'5'") == true)
        #expect(message(["timeline", "--user", Self.sofia, "--hide", "event,party"])?.contains("'event,party'") == true)
        #expect(message(["interactions", "--user", Self.sofia, "--type", "fax"])?.contains("'fax'") == true)
        #expect(message(["interactions", "--user", Self.sofia, "--days", "5"])?.contains("'5'") == true)
        #expect(message(["interactions", "--user", Self.sofia, "--sentiment", "angry"])?.contains("'angry'") == true)
    }

    @Test func outOfRangeNumbersAreRefusedByValue() {
        #expect(message(["feed", "--user", Self.sofia, "--page", "0"]) == "--page must be 1 or more, got 0")
        #expect(message(["feed", "--user", Self.sofia, "--page", "-2"]) == "--page must be 1 or more, got -2")
        #expect(message(["family-activity", "--user", Self.sofia, "--limit", "-5"]) == "--limit must be between 1 and 100, got -5")
        #expect(message(["family-activity", "--user", Self.sofia, "--limit", "0"]) == "--limit must be between 1 and 100, got 0")
        // Numbers that would overflow the arithmetic behind them.
        #expect(message(["token", "--user", Self.sofia, "--ttl", "9223372036854775807"])?.contains("at most ten years") == true)
        #expect(message(["seed", "scale", "--users", "4", "--batch-size", "9223372036854775807"])
            == "--batch-size must be from 4 to 100000, got 9223372036854775807")
    }

    @Test func aCursorWeDidNotIssueIsRefused() {
        let forged = message(["family-activity", "--user", Self.sofia, "--cursor", "AQAGYLQKQXAxmgAAAAAAQACAAAAAAAAAB01u-Qj"])
        #expect(forged?.hasPrefix("invalid --cursor 'AQAGYLQKQXAxmgAAAAAAQACAAAAAAAAAB01u-Qj'") == true)
        #expect(message(["family-activity", "--user", Self.sofia, "--cursor", "%%%"])?.contains("'%%%'") == true)
    }

    @Test func optionCombinationsAreChecked() {
        #expect(message(["interactions", "--user", Self.sofia, "--parent"]) == "--parent needs --family <family id>")
        #expect(message(["interactions", "--user", Self.sofia, "--family", Self.rivera])?.contains("--parent") == true)
        #expect(message(["interactions", "--user", Self.sofia, "--logged-by", Self.sofia])?.contains(Self.sofia) == true)
        #expect(message(["notifications", "read", "--user", Self.sofia]) != nil)
    }

    @Test func aMissingOrMalformedDatabaseURLIsBadInput() async {
        let missing = try? CompassCommand.parseAsRoot(["migrate", "--database-url", ""])
        #expect(missing == nil || ProcessInfo.processInfo.environment["DATABASE_URL"] != nil)
        let malformed = await CompassCommand.run(arguments: ["migrate", "--database-url", "postgresql://u:secret@[oops"])
        #expect(malformed == 2)
    }

    @Test func badInputExitsTwoWithoutTouchingTheDatabase() async {
        // The URL points at a closed port: reaching the database would exit 1, not 2.
        for line in [
            ["feed", "--user", "nope"], ["feed", "--user", Self.sofia, "--page", "0"],
            ["family-activity", "--user", Self.sofia, "--cursor", "abc"],
            ["interactions", "--user", Self.sofia, "--type", "fax"],
        ] {
            #expect(await CompassCommand.run(arguments: line + Self.url) == 2, "\(line)")
        }
    }

    @Test func anUnknownOptionIsNamedBeforeAnythingMissing() async {
        // Decoding fails first (no --user, or no database), yet the typo is what the user reads.
        for line in [["feed", "--bogus"], ["feed", "--user", Self.sofia, "--bogus=1"], ["notifications", "list", "--bogus"]] {
            #expect(UnknownOption.find(in: line) == (line.last?.hasPrefix("--bogus=") == true ? "--bogus" : line.last))
            #expect(await CompassCommand.run(arguments: line) == 2, "\(line)")
        }
        // Every option a command has is known, hidden or inherited ones included.
        let known = [["feed", "--user", Self.sofia, "--widget", "--json", "--database-url", "x", "--page", "2"],
                     ["seed", "scale", "--users", "5"], ["feed", "--help"], ["--version"], ["migrate", "--status"]]
        for line in known {
            #expect(UnknownOption.find(in: line) == nil, "\(line)")
        }
        #expect(UnknownOption.find(in: ["feed", "--", "--bogus"]) == nil)
        // A value that starts with `--` is the option's (bad) value, not an option.
        #expect(UnknownOption.find(in: ["feed", "--page", "--3", "--user", Self.sofia]) == nil)
        #expect(UnknownOption.find(in: ["feed", "--page=2", "--3"]) == "--3")
    }

    @Test func anUnreachableDatabaseIsARuntimeError() async {
        #expect(await CompassCommand.run(arguments: ["migrate"] + Self.url) == 1)
    }
}
