import ArgumentParser

/// `compass seed demo|scale`: loads data sets.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Load the demo data or generate a large data set.",
        subcommands: [SeedDemoCommand.self, SeedScaleCommand.self]
    )
}
